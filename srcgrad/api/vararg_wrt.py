"""An integer ``wrt`` past the named parameters, into ``*args``: ``sg.grad(f, wrt=2)``
of ``def f(x, *rest)`` differentiates w.r.t. ``rest[1]``, the third positional argument
of the call (as ``gradients_function`` counts positions).

The unit is compiled w.r.t. the whole tuple ``rest`` (``wrt="rest"``, one gradient per
item) and the requested items are picked from it; in forward mode, the tangent of
``rest`` is the given tangents at those items and zeros elsewhere.

Before: ``sg.grad(f, wrt=2)`` raised "wrt=2 is out of range". After::

    sg.grad(f, wrt=2)(x, a, b)      == sg.grad(f, wrt="rest")(x, a, b)[1]
    sg.grad(f, wrt=(0, 2))(x, a, b) == (d/dx, d/db)
"""

from __future__ import annotations

import dataclasses
import inspect

from srcgrad import runtime
from srcgrad.frontend.freshness import own_signature


@dataclasses.dataclass
class VarargWrt:
    """``wrt`` with its ``*args`` positions: what to compile and how to pick."""

    compiled: str | tuple     # the wrt to compile (the ``*args`` name once)
    requested: tuple          # per requested item: (index in compiled, item in *args or None)
    single: bool              # an int was asked for, not a tuple
    positional: int           # the named positional parameters (after ``self``)
    varargs: str
    fn_name: str

    def pick(self, grads):
        """The requested gradients from the compiled unit's."""
        compiled = (grads,) if isinstance(self.compiled, str) else tuple(grads)
        picked = []
        for index, item in self.requested:
            gradient = compiled[index]
            picked.append(gradient if item is None else self._item(gradient, item))
        return picked[0] if self.single else tuple(picked)

    def tangents(self, primals, tangent):
        """The compiled unit's tangents (a tuple, one per compiled name) from the ones
        given for the requested arguments."""
        given = (tangent,) if self.single else tuple(tangent)
        names = (self.compiled,) if isinstance(self.compiled, str) else self.compiled
        extra = tuple(primals[self.positional:])
        out = [None] * len(names)
        rest = [runtime.zeros_like(v) for v in extra]
        for (index, item), value in zip(self.requested, given):
            if item is None:
                out[index] = value
            else:
                self._check(item, len(extra))
                rest[item] = value
        out[names.index(self.varargs)] = tuple(rest)
        return tuple(out)

    def _item(self, gradient, item):
        self._check(item, len(gradient))
        return gradient[item]

    def _check(self, item, count):
        if item >= count:
            raise ValueError(
                f"wrt={self.positional + item} is out of range: {self.fn_name} was called "
                f"with {self.positional + count} positional argument(s)")


def positional_parameters(fn, skip_self=False):
    """``(names, varargs)``: ``fn``'s positional parameters (after ``self`` when
    ``skip_self``) and the name of its ``*args`` parameter, or None."""
    kinds = inspect.Parameter
    parameters = list(own_signature(fn).parameters.values())[1 if skip_self else 0:]
    names = [p.name for p in parameters if p.kind in (kinds.POSITIONAL_ONLY,
                                                       kinds.POSITIONAL_OR_KEYWORD)]
    varargs = next((p.name for p in parameters if p.kind == kinds.VAR_POSITIONAL), None)
    return names, varargs


def position_names(fn, positions, skip_self=False):
    """``(wrt, spread)`` for arguments at ``positions`` of a call of ``fn``: the
    parameter names to differentiate (``*args``'s once), and per position its index in
    them with its item in ``*args`` (or None). ``TypeError`` for a position past the
    parameters of a function without ``*args``, as the call would raise."""
    names, varargs = positional_parameters(fn, skip_self)
    wrt, spread = [], []
    for i in positions:
        if i < len(names):
            name, item = names[i], None
        elif varargs is not None:
            name, item = varargs, i - len(names)
        else:
            raise TypeError(f"{fn.__name__}() takes {len(names)} positional argument(s) "
                            f"but {i + 1} or more were given")
        if name not in wrt:
            wrt.append(name)
        spread.append((wrt.index(name), item))
    return tuple(wrt), tuple(spread)


def spread_gradients(grads, spread):
    """One gradient per position from the gradients of ``position_names``'s ``wrt``
    (None stays None)."""
    out = []
    for index, item in spread:
        gradient = grads[index]
        out.append(gradient if item is None or gradient is None else gradient[item])
    return out


def split(fn, bound, wrt, resolve):
    """A ``VarargWrt`` when an int in ``wrt`` lands in ``fn``'s ``*args``, else None
    (``resolve(fn, wrt, bound)``: the names of the other items)."""
    items = wrt if isinstance(wrt, (tuple, list)) else (wrt,)
    names, varargs = positional_parameters(fn, bound is not None)
    positional = len(names)
    if varargs is None or not any(_past(w, positional) for w in items):
        return None
    compiled, requested = [], []
    for w in items:
        if _past(w, positional):
            name, item = varargs, w - positional
        else:
            name, item = resolve(fn, w, bound), None
        if name not in compiled:
            compiled.append(name)
        requested.append((compiled.index(name), item))
    single = not isinstance(wrt, (tuple, list))
    return VarargWrt(compiled[0] if single else tuple(compiled), tuple(requested), single,
                     positional, varargs, fn.__name__)


def _past(w, positional):
    return isinstance(w, int) and not isinstance(w, bool) and w >= positional
