"""The in-memory cache of compiled units, keyed by function, kind, ``wrt`` and guards.

The units of a function are kept on the function itself (in its ``__dict__``): they live
exactly as long as it does, so 10,000 ``sg.grad(lambda ...)`` leave nothing behind once
the lambdas are gone, and a lambda closing over a large array frees it. (A table in
srcgrad keyed weakly by the function could not do that: each unit refers to its
function, which would keep the key alive.) Several units may be cached for one key,
one per set of bindings of the names they resolved (``srcgrad.compiler.guards``): ``find``
returns the one whose guards hold now.

``functools.wraps`` copies a function's ``__dict__`` to its wrapper: the store records
its owner, and a copied store is ignored; pickled (a function sent by value), it is an
empty dict.
"""

from __future__ import annotations

from srcgrad.compiler import guards as guards_module
from srcgrad.rules import REGISTRY

_ATTRIBUTE = "__srcgrad_units__"
MAX_VARIANTS = 8   # units kept per key (one per set of bindings seen)


class _Store(dict):
    """``{(kind, wrt): [units, newest first]}`` of one function."""

    def __init__(self, owner):
        super().__init__()
        self.owner = owner
        self.code = guards_module.code_of(owner)   # what the units were generated from
        self.generation = REGISTRY.generation      # ... and under which rule table
        self.defaults = _defaults_of(owner)        # ... and with which defaults

    def __reduce__(self):   # a function pickled by value (cloudpickle) takes no units along
        return dict, ()


def _store(fn, create):
    store = getattr(fn, "__dict__", {}).get(_ATTRIBUTE)
    if getattr(store, "owner", None) is fn:
        return store
    if not create:
        return None
    store = _Store(fn)
    try:
        setattr(fn, _ATTRIBUTE, store)
    except (AttributeError, TypeError):   # no __dict__: not kept between calls
        pass
    return store


def find(fn, kind, wrt):
    """The cached unit for ``(fn, kind, wrt)`` whose guards hold now, or None. A unit
    still being generated (a recursive call reaching it) always matches."""
    store = _store(fn, create=False)
    if store is not None and (store.code is not guards_module.code_of(fn)
                              or store.generation != REGISTRY.generation
                              or not _same(store.defaults, _defaults_of(fn))):
        store.clear()   # fn's code was replaced (IPython's autoreload), a rule was
        store.code = guards_module.code_of(fn)   # registered or replaced since, or its
        store.generation = REGISTRY.generation   # defaults were reassigned
        store.defaults = _defaults_of(fn)
    for unit in (store or {}).get((kind, wrt), ()):
        guards = getattr(unit, "guards", None)
        if guards is None or not guards or guards_module.hold(fn, guards):
            return unit
    return None


def _defaults_of(fn):
    return getattr(fn, "__defaults__", None), getattr(fn, "__kwdefaults__", None)


def _same(a, b):
    return a[0] is b[0] and a[1] is b[1]


def add(fn, kind, wrt, unit):
    units = _store(fn, create=True).setdefault((kind, wrt), [])
    units.insert(0, unit)
    del units[MAX_VARIANTS:]


def discard(fn, kind, wrt, unit):
    units = (_store(fn, create=False) or {}).get((kind, wrt), [])
    units[:] = [u for u in units if u is not unit]


def cached_wrts(fn, kind="reverse"):
    """The ``wrt`` keys with a unit cached for ``fn`` (for tests and tools)."""
    store = _store(fn, create=False) or {}
    return {wrt for (k, wrt), units in store.items() if k == kind and units}


class LinkedUnit:
    """What the unit cache keeps for a unit that links its callees' units (the batched
    sweeps): the unit, or None (with no guards: never stale), and the callees it links,
    each ``(function, code, guards)``, checked on every lookup (``current``)."""

    def __init__(self):
        self.unit, self.guards, self.callees = None, None, []

    def current(self):
        """Does every linked callee's unit still match it (its code, the names it
        resolved)?"""
        return all(guards_module.code_of(callee) is code
                   and (not callee_guards or guards_module.hold(callee, callee_guards))
                   for callee, code, callee_guards in self.callees)
