"""Which locals are proven instances of a class that is not a dict: their ``.get()``,
``.values()``, ``.items()`` and ``.keys()`` are the class's own methods (resolved when
they run, ``srcgrad.compiler.dispatch``), never compiled as dict's.

Before (normalized)::                 ``b`` proven a ``Box``:

    b = Box(p)                            _get = b.get()   -> a dynamic call of Box.get
    _get = b.get()
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis.arrays import greatest_subset
from srcgrad.modes.calls import structure_fields
from srcgrad.syntax import gast


def proven_instances(parsed, assigned, params, local_names):
    """The locals every binding of which is a call to a class that builds an instance of
    itself and is not a dict (a dataclass, a NamedTuple, a class of the user's with
    ``object.__new__``), or a copy of such a local. The class is assumed (guarded) as
    the call itself is."""
    def builds(value, found):
        if isinstance(value, gast.Name):
            return value.id in found
        if not isinstance(value, gast.Call) or syntax.spreads(value):
            return False
        dotted = syntax.dotted_name(value.func)
        if not dotted or dotted.split(".")[0] in local_names:
            return False
        try:
            cls = parsed.assume(dotted)
        except KeyError:
            return False
        return isinstance(cls, type) and type(cls).__call__ is type.__call__ \
            and not issubclass(cls, dict) \
            and (cls.__new__ is object.__new__ or structure_fields(cls) is not None)

    candidates = set(assigned.values) - assigned.bound_otherwise - set(params)
    return greatest_subset(candidates, assigned, builds)


def proven_dicts(assigned, params):
    """The locals every binding of which is a dict display or comprehension, or a copy
    of such a local: their ``.get()``, ``.values()``, ``.items()`` and ``.keys()`` are
    dict's, compiled as its rows. Those of any other value not proven an array (a
    parameter, what a call returned) are looked up when they run: dict's for a dict,
    the class's own for an object (``srcgrad.compiler.dispatch``)."""
    def builds(value, found):
        if isinstance(value, gast.Name):
            return value.id in found
        return isinstance(value, (gast.Dict, gast.DictComp))

    candidates = {name for name in set(assigned.values) - assigned.bound_otherwise
                  - set(params) if all(type(value) in _DICT_OR_COPY
                                       for value in assigned.values[name])}
    if not candidates:   # (a name assigned anything else is none: nothing to solve)
        return frozenset()
    return greatest_subset(candidates, assigned, builds)


_DICT_OR_COPY = frozenset({gast.Name, gast.Dict, gast.DictComp})
