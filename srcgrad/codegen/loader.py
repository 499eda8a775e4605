"""Compile generated source once, under a file name registered with ``linecache``, so
tracebacks, ``inspect.getsource`` and ``pdb`` show the generated code."""

from __future__ import annotations

import hashlib
import linecache

import numpy as np

from srcgrad import runtime

_LOADED_FILES = set()   # the file names ``load`` registered: code srcgrad generated


class LiveGlobals(dict):
    """Globals of generated code: ``np``, ``math``, ``_sg`` and generated functions live
    here; every other name is looked up, at call time, in the user function's closure
    cells and then its module globals (so rebinding a global is seen). A builtin the
    user's module does not define is bound here on first use (``float`` in a hot loop
    then costs a dict lookup)."""

    def __init__(self, fn):
        import math

        super().__init__(np=np, math=math, _sg=runtime)
        self._closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
        self._user_globals = fn.__globals__
        self["__builtins__"] = fn.__globals__.get("__builtins__", __builtins__)

    def __missing__(self, key):
        cell = self._closure.get(key)
        if cell is not None:
            return cell.cell_contents
        try:
            return self._user_globals[key]
        except KeyError:
            builtins = self["__builtins__"]
            builtins = builtins if isinstance(builtins, dict) else vars(builtins)
            if key not in builtins:
                raise
        self[key] = builtins[key]
        return builtins[key]


def load(source, label, namespace):
    """Exec ``source`` into ``namespace`` under a linecache-registered file name."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:10]
    filename = f"<srcgrad {label} {digest}>"
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    code = compile(source, filename, "exec")
    _LOADED_FILES.add(filename)
    exec(code, namespace)
    return filename


def is_generated(fn):
    """Is ``fn`` one of the functions of a unit srcgrad generated (``f_grad``...)?"""
    code = getattr(fn, "__code__", None)
    unit = getattr(fn, "unit", None)
    return code is not None and code.co_filename in _LOADED_FILES \
        and getattr(unit, "filename", None) == code.co_filename
