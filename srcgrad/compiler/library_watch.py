"""NumPy and ``math`` names that generated code calls, watched for rebinding.

Generated code calls ``np.tanh(x)`` and differentiates it with ``np.tanh``'s rule: the
name is proven (generated code binds ``np`` to NumPy itself), not guarded on each call.
User code that rebinds it afterwards (``np.tanh = np.sin``, a monkeypatch) would leave
such code computing sin's value with tanh's derivative. So the modules whose attributes
generated code reads get a ``ModuleType`` subclass whose ``__setattr__`` and
``__delattr__`` report the change (reads cost nothing more); each unit that reads the
rebound name is then made to raise where it runs, naming the name, and generating code
that reads it is refused until it holds what it held when srcgrad first read it (rule
text calls library functions by name: ``math.cos``'s derivative is ``-math.sin(x)``)::

    np.tanh = np.sin      # after df = sg.grad(f) ran
    df(x)                 # TransformError: numpy.tanh was rebound ...
    sg.grad(f)            # TransformError: numpy.tanh was rebound ...; restore it
    np.tanh = tanh        # restored: sg.grad(f) differentiates tanh again

``type(numpy)`` is then that subclass (``isinstance(numpy, types.ModuleType)`` holds).
"""

from __future__ import annotations

import functools
import importlib
import math
import re
import threading
import types
import weakref

import numpy as np

from srcgrad.errors import TransformError

_ROOTS = {"np": np, "math": math}
# ``np.linalg.norm``: the root, then its chain (a word boundary before the root is checked
# in ``_chains``: a pattern starting with ``\b`` is tried at every position of the text).
_CHAIN = re.compile(r"(np|math)((?:\.[A-Za-z_]\w*)+)")
_DEPENDENTS: dict = {}   # (module name, attribute) -> {id: unit} (weakly) of units reading it
_LOCK = threading.RLock()
REBOUND: set = set()     # "numpy.tanh": names rebound in this process (no disk cache then)
_ORIGINAL: dict = {}     # (module name, attribute) -> what it held when first read
_MISSING = object()


class _Watched(types.ModuleType):
    """A library module whose attribute writes srcgrad hears of."""

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        _rebound(self, name)

    def __delattr__(self, name):
        super().__delattr__(name)
        _rebound(self, name)

    def __reduce__(self):   # pickled as the module it is (cloudpickle: by reference)
        return importlib.import_module, (self.__name__,)


def watch(unit, source):
    """Register ``unit`` as reading each ``np.``/``math.`` name its ``source`` calls (each
    link of a chain: ``np.linalg.norm`` reads ``numpy.linalg`` and its ``norm``). A name
    rebound since srcgrad first saw it is refused: rule text calls library functions by
    name too (``math.cos``'s derivative is ``-math.sin(x)``)."""
    links = set()
    for root, chain in _chains(source):
        module = _ROOTS[root]
        for attr in chain[1:].split("."):
            if not isinstance(module, types.ModuleType):
                break
            links.add((module, attr))
            module = getattr(module, attr, None)
    with _LOCK:
        for module, attr in links:
            key = (module.__name__, attr)
            if key not in _ORIGINAL:
                _ORIGINAL[key] = getattr(module, attr, _MISSING)
            elif getattr(module, attr, _MISSING) is not _ORIGINAL[key]:
                raise TransformError(
                    f"{module.__name__}.{attr} was rebound after srcgrad first read it: "
                    "generated code calls NumPy and math by their names, and derivative "
                    "rules are written with them, so a rebound one cannot be differentiated "
                    f"soundly; restore {module.__name__}.{attr} (or call the replacement by "
                    "a name of your own)")
            if type(module) is types.ModuleType:
                module.__class__ = _Watched
            if isinstance(module, _Watched):
                _DEPENDENTS.setdefault((module.__name__, attr),
                                       weakref.WeakValueDictionary())[id(unit)] = unit


def _chains(source):
    """The distinct ``(root, chain)`` of ``source``: what ``re.findall`` of the pattern
    with a leading ``\b`` finds (a match after a word character is passed over, and the
    search goes on from the next position)."""
    found, position, search = set(), 0, _CHAIN.search
    while True:
        match = search(source, position)
        if match is None:
            return found
        start = match.start()
        before = source[start - 1] if start else " "
        if before.isalnum() or before == "_":
            position = start + 1
            continue
        found.add(match.groups())
        position = match.end()


def watch_cells(unit, cells):
    """Cells holding ``np`` or ``math`` for functions made from ``unit``'s code (the
    collector-free variants of ``eager.static``): made stale with the unit."""
    if cells:
        vars(unit).setdefault("library_cells", []).extend(cells)


def _rebound(module, name):
    from srcgrad.rules.registry import REGISTRY

    qualified = f"{module.__name__}.{name}"
    with _LOCK:
        if (module.__name__, name) not in _ORIGINAL:
            return
        REBOUND.add(qualified)
        REGISTRY.generation += 1   # units and templates cached on functions: made again
        units = list(_DEPENDENTS.pop((module.__name__, name), {}).values())
    for unit in units:
        _make_stale(unit, qualified)


def _make_stale(unit, qualified):
    """Make the generated code of ``unit`` raise where it reads NumPy or ``math``, as long
    as ``qualified`` does not hold what it held when the code was generated."""
    module_name, _, attr = qualified.rpartition(".")
    key = (module_name, attr)
    for root, library in _ROOTS.items():
        if root in unit.namespace:
            held = unit.namespace[root]
            if isinstance(held, _Stale):   # already stale for another name: both count
                held._keys.append(key)
                continue
            unit.namespace[root] = _Stale(key, unit, library,
                                          functools.partial(_restore_root, unit, root,
                                                            library))
    for cell in vars(unit).get("library_cells", ()):
        held = cell.cell_contents
        if isinstance(held, _Stale):
            held._keys.append(key)
            continue
        cell.cell_contents = _Stale(key, unit, held,
                                    functools.partial(setattr, cell, "cell_contents", held))


def _restore_root(unit, root, library):
    unit.namespace[root] = library


def _stale_message(unit, qualified):
    name = getattr(getattr(unit, "fn", None), "__qualname__", "the function")
    return (f"{qualified} was rebound after srcgrad generated this derivative of {name}, "
            f"which calls {qualified} and differentiates it with the rule of what it "
            f"denoted then; make the derivative again (sg.grad({name}) ...) to "
            "differentiate what it denotes now, or restore it")


class _Stale:
    """In place of ``np``/``math`` in a unit whose code read a name rebound since: an
    error while the name stays rebound; once it holds its original again, the library
    is put back (and watched again) and the read goes on."""

    __slots__ = ("_keys", "_unit", "_library", "_restore")

    def __init__(self, key, unit, library, restore):
        self._keys = [key]   # (module name, attribute) of each name rebound since
        self._unit = unit
        self._library = library   # the module this placeholder stands for
        self._restore = restore

    def __getattr__(self, name):
        for key in self._keys:
            module = importlib.import_module(key[0])
            if getattr(module, key[1], _MISSING) is not _ORIGINAL.get(key, _MISSING):
                raise TransformError(_stale_message(self._unit, ".".join(key)))
        with _LOCK:   # watched again first: it raises if another name it reads is rebound
            source = getattr(getattr(self._unit, "module", None), "source", None)
            if source is not None:
                watch(self._unit, source)
            self._restore()
        return getattr(self._library, name)
