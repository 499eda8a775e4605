"""Compile generated source once, under a file name registered with ``linecache``, so
tracebacks, ``inspect.getsource`` and ``pdb`` show the generated code.

``LazyFunctions`` compiles each function of a generated module from its own lines, on
first use: ``sg.grad`` needs only ``f_grad`` of the four, and compiling the others
(each as long as the sweeps they hold) would triple the work for a long function.
"""

from __future__ import annotations

import hashlib
import linecache
import threading
import weakref
from collections.abc import Mapping

import numpy as np

from srcgrad import runtime

_LOADED_FILES: set[str] = set()   # the file names ``register`` gave: code srcgrad generated


class LiveGlobals(dict):
    """Globals of generated code: ``np``, ``math``, ``_sg`` and generated functions live
    here; every other name is looked up, at call time, in the user function's closure
    cells and then its module globals (so rebinding a global is seen). A builtin the
    user's module does not define is bound here on first use (``float`` in a hot loop
    then costs a dict lookup).

    Generated functions run with ``fast`` as their globals: a plain dict holding the
    same entries (CPython caches a global read only from a plain dict: read from a
    subclass, ``np.`` and ``_sg.`` cost about 40 ns more each), whose builtins (what a
    miss reads) are this lookup."""

    def __init__(self, fn):
        import math

        self.fast = {"__builtins__": _Misses(self)}
        super().__init__()
        self.update(np=np, math=math, _sg=runtime)
        self._closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
        self._user_globals = globals_of(fn)
        self["__builtins__"] = self._user_globals.get("__builtins__", __builtins__)
        self.pending = {}   # name of a generated function not compiled yet -> its compiler

    def __missing__(self, key):
        compile_pending = self.pending.get(key)
        if compile_pending is not None:
            return compile_pending()
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

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        if key != "__builtins__":
            self.fast[key] = value

    def __delitem__(self, key):
        dict.__delitem__(self, key)
        self.fast.pop(key, None)

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    def pop(self, key, *default):
        if key != "__builtins__":
            self.fast.pop(key, None)
        return dict.pop(self, key, *default)


class _Misses(dict):
    """The builtins of the globals generated functions run with (``LiveGlobals.fast``):
    a name not found there is looked up by the ``LiveGlobals``."""

    def __init__(self, namespace):
        super().__init__()
        self.srcgrad_namespace = namespace

    def __missing__(self, key):
        return self.srcgrad_namespace[key]


def globals_of(function):
    """The namespace ``function`` reads its globals from: a generated function's
    ``LiveGlobals`` (its ``__globals__`` is the plain dict ``fast``), else its module's."""
    found = function.__globals__
    misses = found.get("__builtins__")
    return misses.srcgrad_namespace if type(misses) is _Misses else found


def register(source, label, annotated=False, owner=None):
    """The linecache-registered file name ``source`` is compiled under (``annotated``:
    an entry already there, maybe annotated with the user's lines, is kept). With an
    ``owner`` (the unit whose code it is), the entry lives as long as some owner of
    that file name does; without one, for good."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:10]
    filename = f"<srcgrad {label} {digest}>"
    with _OWNERS_LOCK:
        if owner is None:
            _PERMANENT.add(filename)
        else:
            _OWNERS[filename] = _OWNERS.get(filename, 0) + 1
            weakref.finalize(owner, _release, filename)
        if annotated and filename in _LOADED_FILES and filename in linecache.cache:
            return filename
        lines = source.splitlines(keepends=True)
        linecache.cache[filename] = (len(source), None, lines, filename)
        _LOADED_FILES.add(filename)
    return filename


# file name -> how many live owners registered it; the entries of ``_PERMANENT`` stay
_OWNERS: dict[str, int] = {}
_PERMANENT: set[str] = set()
_OWNERS_LOCK = threading.RLock()   # (a finalizer may run while this thread holds it)
RELEASE_HOOKS: list = []   # called with a file name whose last owner died


def _release(filename):
    """The last owner of ``filename`` died: drop what was kept for it (its linecache
    entry, its compiled ``def``s), so generated code leaves nothing behind."""
    with _OWNERS_LOCK:
        left = _OWNERS.get(filename, 1) - 1
        if left > 0:
            _OWNERS[filename] = left
            return
        _OWNERS.pop(filename, None)
        if filename in _PERMANENT:
            return
        _LOADED_FILES.discard(filename)
        entry = linecache.cache.get(filename)
        if entry is not None and entry[3] == filename:
            del linecache.cache[filename]
        for key in [key for key in _DEF_CODES if key[0] == filename]:
            _DEF_CODES.pop(key, None)
    for hook in RELEASE_HOOKS:
        hook(filename)


def load(source, label, namespace, owner=None):
    """Exec ``source`` into ``namespace`` under a linecache-registered file name (kept
    while ``owner`` lives: see ``register``)."""
    filename = register(source, label, owner=owner)
    code = compile(source, filename, "exec")
    fast = getattr(namespace, "fast", None)
    if fast is None:
        exec(code, namespace)
    else:   # the functions run with ``fast``; what the module binds is the namespace's too
        exec(code, fast)
        for name, value in fast.items():
            if name != "__builtins__" and not dict.__contains__(namespace, name):
                dict.__setitem__(namespace, name, value)
    return filename


def is_generated(fn):
    """Is ``fn`` one of the functions of a unit srcgrad generated (``f_grad``...)?"""
    code = getattr(fn, "__code__", None)
    unit = getattr(fn, "unit", None)
    return code is not None and code.co_filename in _LOADED_FILES \
        and getattr(unit, "filename", None) == code.co_filename


_COMPILING = threading.RLock()   # (a default value may call other generated code)
# (file name, function name) -> the compiled ``def``: the file name holds a digest of the
# module's source, so units loaded from one module (closures of one ``def``, see
# ``compiler.code_cache``) compile each function once.
_DEF_CODES: dict = {}
_MAX_DEF_CODES = 512


class LazyFunctions(Mapping):
    """``role -> function`` of a generated module whose functions are compiled one by
    one on first use, from their own lines (numbered as in the module, so tracebacks
    and the line map hold). A function that calls another of the module finds it
    through ``namespace.pending`` (a ``LiveGlobals``). ``prepare(role, function)`` runs
    on each function before it is published in ``namespace``."""

    def __init__(self, source, filename, names, spans, namespace, prepare):
        self._lines = source.splitlines(keepends=True)
        self._filename, self._names, self._spans = filename, names, spans
        self._namespace, self._prepare = namespace, prepare
        for role, name in names.items():
            namespace.pending[name] = lambda role=role: self._compile(role)

    def __getitem__(self, role):
        found = dict.get(self._namespace, self._names[role])
        return found if found is not None else self._compile(role)

    def __iter__(self):
        return iter(self._names)

    def __len__(self):
        return len(self._names)

    def _compile(self, role):
        name = self._names[role]
        with _COMPILING:
            found = dict.get(self._namespace, name)
            if found is None:
                code = _DEF_CODES.get((self._filename, name))
                if code is None:
                    first, last = self._spans[name]
                    text = "\n" * (first - 1) + "".join(self._lines[first - 1:last])
                    code = compile(text, self._filename, "exec")
                    if len(_DEF_CODES) >= _MAX_DEF_CODES:
                        _DEF_CODES.clear()
                    _DEF_CODES[self._filename, name] = code
                scope = {}   # the def binds here; the function's globals are the namespace
                exec(code, getattr(self._namespace, "fast", self._namespace), scope)
                found = scope[name]
                self._prepare(role, found)
                self._namespace[name] = found
                self._namespace.pending.pop(name, None)
            return found
