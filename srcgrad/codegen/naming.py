"""The one place that makes names for generated code.

Rules: an adjoint of ``x`` is ``dx``, a tangent is ``x_dot``, a temporary is named after
its operation (``_mul``, ``_sin``); a numeric suffix (``_1``, ``_2``) is added only on a
collision; a builtin or keyword is never produced.
"""

from __future__ import annotations

import builtins
import keyword

RESERVED = set(dir(builtins)) | set(keyword.kwlist) | {"np", "math", "_sg"}


class Namer:
    """Hands out fresh names that collide with nothing the function already uses."""

    def __init__(self, taken=()):
        self.taken = set(taken) | RESERVED
        self._next_suffix = {}     # base -> the first suffix not yet tried
        self._adjoints = {}
        self._tangents = {}
        self.temps = set()         # the names ``temp`` gave (never the user's)

    def reserve(self, names):
        self.taken.update(names)

    def fresh(self, base):
        base = _sanitize(base)
        candidate = base
        counter = self._next_suffix.get(base, 1)
        while candidate in self.taken:
            candidate = f"{base}_{counter}"
            counter += 1
        self._next_suffix[base] = counter
        self.taken.add(candidate)
        return candidate

    def temp(self, operation):
        """A temporary holding the result of ``operation`` (``_mul``, ``_sin``...)."""
        name = self.fresh("_" + operation.lstrip("_"))
        self.temps.add(name)
        return name

    def adjoint(self, primal):
        """The adjoint (cotangent) variable of ``primal``: ``x`` -> ``dx``."""
        if primal not in self._adjoints:
            base = "d" + primal if not primal.startswith("_") else "d" + primal
            self._adjoints[primal] = self.fresh(base)
        return self._adjoints[primal]

    def adjoint_names(self):
        """Every adjoint variable made so far."""
        return list(self._adjoints.values())

    def tangent(self, primal):
        """The tangent variable of ``primal``: ``x`` -> ``x_dot``."""
        if primal not in self._tangents:
            self._tangents[primal] = self.fresh(primal + "_dot")
        return self._tangents[primal]


def _sanitize(base):
    if base.isascii() and base.isidentifier():   # (the usual case: nothing to replace)
        return base
    cleaned = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in base)
    if not cleaned or cleaned[0].isdigit():
        cleaned = "_" + cleaned
    return cleaned
