"""What the generated dependency sweep calls (bound as ``_dep`` in its globals).

Before (normalized)::            After (``x_deps``: x's ``Deps``)::

    y = np.sin(x)                    y = np.sin(x)
                                     y_deps = _dep.apply('numpy.sin', y, {'x': x}, {'x': x_deps})
    z = y[1:]                        z = y[1:]
                                     z_deps = _dep.getitem(y, y_deps, slice(1, None))
"""

from __future__ import annotations

import numpy as np

from srcgrad.sparse import pattern_deps as pd
from srcgrad.sparse.pattern_deps import Deps, local, local_unless  # noqa: F401  (generated code)
from srcgrad.sparse.pattern_rules import dense, pattern_rule


def apply(name, ans, values, deps):
    """The ``Deps`` of ``ans``, the result of the rule-table row ``name`` called with
    ``values`` (``deps``: of the parameters that carry dependencies)."""
    from srcgrad.rules import REGISTRY

    rule = pattern_rule(REGISTRY.rows()[name])
    if rule is None:
        return dense(ans, deps, f"{name} at {pd.user_location()} has no pattern rule: dense")
    if not getattr(rule, "takes_containers", False):
        for param, found in list(deps.items()):
            if isinstance(found, (list, tuple)):   # a list given for an array: stacked
                values = dict(values, **{param: np.asarray(values[param])})
                deps = dict(deps, **{param: _stacked(values[param], found)})
    return rule(ans, values, deps)


def _stacked(array, items_deps):
    """The dependencies of ``np.asarray(items)`` from those of the items."""
    from srcgrad.sparse.pattern_gathers import gather

    return gather(np.asarray, ("a",), array, {"a": _as_lists(items_deps, array)},
                  {"a": items_deps})


def _as_lists(items_deps, array):
    """Placeholders shaped like the items (only their shapes are read by ``gather``)."""
    return [_as_lists(d, a) if isinstance(d, (list, tuple)) else a
            for d, a in zip(items_deps, array)]


def fallback(ans, deps, reason):
    """``ans`` depends on everything its inputs do (a call with no pattern rule)."""
    return dense(ans, deps, reason)


def no_deps(value):
    """The dependencies of a value that depends on nothing (a container of Nones for a
    list, tuple or dict, whose items may be given dependencies later)."""
    if type(value) is list:
        return [no_deps(v) for v in value]
    if type(value) is tuple:
        return tuple(no_deps(v) for v in value)
    if type(value) is dict:
        return {k: no_deps(v) for k, v in value.items()}
    return None


def _is_container(value):
    return isinstance(value, (list, tuple, dict))


def getitem(value, deps, key):
    """The dependencies of ``value[key]``."""
    if deps is None:
        return None
    if _is_container(value) and not isinstance(deps, Deps):
        return deps.get(key) if isinstance(deps, dict) else deps[key]
    rows = pd.take_rows(deps.rows, pd.selected_ids(value, key))
    return pd.made(rows, [deps])


def setitem(value, deps, key, item, item_deps):
    """The dependencies of ``value`` after ``value[key] = item`` (a list's or dict's are
    updated in place, as the list is)."""
    if _is_container(value):
        deps = no_deps(value) if deps is None else deps
        deps[key] = item_deps
        return deps
    n = pd.width(deps, item_deps)
    if n is None:
        return None
    size = pd.size_of(value)
    rows = pd.rows_of(value, deps, n)
    written = pd.selected_ids(value, key)
    if np.size(written) == 1 and pd.size_of(item) == 1:   # one element: spliced in
        row = pd.rows_of(item, item_deps, n)
        return pd.made(pd.replace_row(rows, int(np.ravel(written)[0]), row), [deps, item_deps])
    item_rows = pd.broadcast_rows(pd.rows_of(item, item_deps, n), np.shape(item),
                                  np.shape(written))
    source = np.arange(size, dtype=np.int64)
    source[np.ravel(written)] = size + np.arange(np.size(written), dtype=np.int64)
    stacked = pd.vstack_rows([rows, item_rows])
    return pd.made(pd.take_rows(stacked, source), [deps, item_deps])


def field(deps, name):
    """A NamedTuple's or dataclass's field's dependencies."""
    if isinstance(deps, Deps):   # an array's attribute that no rule describes
        from srcgrad.errors import TransformError

        raise TransformError(f"srcgrad: the dependency sweep does not support the attribute "
                             f"`.{name}` of an array being differentiated (at "
                             f"{pd.user_location()})")
    return None if deps is None else getattr(deps, name)


def attribute(value, deps, name):
    """``x.T``, ``x.real``, ``x.imag``, ``x.flat`` of an array."""
    if deps is None:
        return None
    if name == "T":
        return pd.made(pd.take_rows(deps.rows, np.transpose(pd.element_ids(value))), [deps])
    return deps   # .real, .imag (elementwise), .flat (the same order)


def concat(a, a_deps, b, b_deps):
    """``a + b`` of two lists or tuples."""
    left = no_deps(a) if a_deps is None else a_deps
    right = no_deps(b) if b_deps is None else b_deps
    return type(a)(left) + type(b)(right) if type(a) is type(b) else list(left) + list(right)


def pairs(items, deps):
    """``for x in items``: each item with its dependencies."""
    if type(items) is dict:
        return zip(items, [None] * len(items), strict=True)
    if deps is None:
        return zip(items, [None] * len(items), strict=True)
    if isinstance(deps, Deps):
        return zip(items, [getitem(items, deps, i) for i in range(len(items))], strict=True)
    return zip(items, deps, strict=True)


def item_deps(deps, items):
    """One entry per item of ``items`` (``*items`` at a call)."""
    if deps is None:
        return [None] * len(items)
    if isinstance(deps, Deps):
        return [getitem(items, deps, i) for i in range(len(items))]
    return list(deps)


def keyword_deps(deps, kwargs):
    if deps is None:
        return dict.fromkeys(kwargs)
    return {k: deps.get(k) for k in kwargs}


def written_into(value, deps, *others):
    """A call that writes into ``value`` in place (``np.add.at(v, i, x)``): every element
    of ``value`` may now depend on everything the inputs do."""
    return dense(value, {"value": deps, **{str(i): d for i, d in enumerate(others)}},
                 f"an in-place update at {pd.user_location()}: dense")


def dynamic(func, owner_deps, args, arg_deps, /, **kwargs):
    """``(value, deps)`` of ``func(*args, **kwargs)``, ``func`` known when it runs."""
    return dynamic_keywords(func, owner_deps, args, arg_deps, kwargs, {})


def dynamic_keywords(func, owner_deps, args, arg_deps, kwargs, keyword_deps):
    from srcgrad.compiler import dispatch
    from srcgrad.sparse import pattern_unit

    varies = owner_deps is not None
    callee = dispatch.resolve(func, varies, args, kwargs, bool(keyword_deps))
    outer = ((owner_deps,) if varies else ()) + tuple(arg_deps)
    wrt, slots = callee.wrt()
    chosen = []
    for name, slot in zip(wrt, slots):
        if type(slot) is int:
            d = outer[slot]
        elif type(slot) is str:
            d = keyword_deps.get(slot)
        else:   # the callee's **kwargs: a dict of dependencies
            d = {k: keyword_deps.get(k) for k in slot}
            d = None if all(v is None for v in d.values()) else d
        if d is not None:
            chosen.append((name, d))
    unit = pattern_unit.pattern_unit(callee.fn, tuple(name for name, _ in chosen))
    return pattern_unit.call(unit, callee.values, [d for _, d in chosen], **callee.kwargs)
