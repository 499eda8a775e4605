"""Gathers: rows that only move elements (or fill zeros), found by running the same call
on element ids.

Each element of each array argument that carries data gets an id (``1, 2, ...``;
``0``: a filled zero); the NumPy function runs on the ids with every other argument as
given, and each output element takes the rows of the id it holds::

    y = np.roll(x, 1)      ->  ids = np.roll([1, 2, 3], 1) = [3, 1, 2]
                               y's rows = x's rows [2, 0, 1]

Only functions whose output elements are copies of input elements or zeros are listed
here (``np.pad`` in its copying modes, with a zero fill): for them the ids say exactly
where each output element comes from.
"""

from __future__ import annotations

import numpy as np

from srcgrad.sparse import pattern_deps as pd
from srcgrad.sparse.pattern_deps import Deps
from srcgrad.sparse.pattern_rules import TABLE, dense, leaves

_SAME = "a"
# function -> the parameters that carry the data moved
_GATHERS = {
    np.reshape: ("a",), np.ravel: ("a",), np.expand_dims: ("a",), np.squeeze: ("a",),
    np.atleast_1d: ("a",), np.atleast_2d: ("a",), np.atleast_3d: ("a",),
    np.transpose: ("a",), np.swapaxes: ("a",), np.moveaxis: ("a",), np.rollaxis: ("a",),
    np.broadcast_to: ("array",), np.copy: ("a",), np.tile: ("A",), np.repeat: ("a",),
    np.flip: ("m",), np.flipud: ("m",), np.fliplr: ("m",), np.rot90: ("m",), np.roll: ("a",),
    np.concatenate: ("arrays",), np.stack: ("arrays",), np.hstack: ("tup",),
    np.vstack: ("tup",), np.dstack: ("tup",), np.column_stack: ("tup",),
    np.split: ("ary",), np.array_split: ("ary",), np.hsplit: ("ary",),
    np.vsplit: ("ary",), np.dsplit: ("ary",),
    np.triu: ("m",), np.tril: ("m",), np.diag: ("v",), np.diagonal: ("a",),
    np.take: ("a",), np.take_along_axis: ("arr",), np.append: ("arr", "values"),
    np.array: ("object",), np.asarray: ("a",), np.asanyarray: ("a",), np.real_if_close: ("a",),
}
_COPYING_PAD_MODES = frozenset({"constant", "edge", "wrap", "reflect", "symmetric", "empty"})


def gather(func, linear, ans, values, deps):
    """The rows of ``ans = func(**values)`` where ``func`` moves the elements of the
    ``linear`` parameters."""
    blocks, taken = [], [1]   # (value, deps) given ids; the next id

    def ids_for(value, d):
        if isinstance(value, (list, tuple)) and not isinstance(d, Deps):
            items = d if isinstance(d, (list, tuple)) else [None] * len(value)
            out = [ids_for(v, di) for v, di in zip(value, items)]
            return out if isinstance(value, list) else tuple(out)
        blocks.append((value, d))
        ids = pd.element_ids(value, taken[0])
        taken[0] += ids.size
        return ids

    inputs = [d for p in linear for d in leaves(deps.get(p))]
    if not inputs:
        return None
    # ids keep their own integer dtype, and are never written into the caller's buffer
    call = {p: v for p, v in values.items() if p not in ("dtype", "out")}
    for p in linear:
        if p in values:
            call[p] = ids_for(values[p], deps.get(p))
    ids = call_with(func, call)
    n = inputs[0].n
    stacked = pd.vstack_rows([pd.rows_of(v, d, n) for v, d in blocks])
    hess = pd.merged_hess(inputs)
    return _taken(ids, stacked, hess)


def _taken(ids, stacked, hess):
    if isinstance(ids, (list, tuple)):
        items = [_taken(i, stacked, hess) for i in ids]
        return items if isinstance(ids, list) else tuple(items)
    rows = pd.take_rows(stacked, np.asarray(ids).astype(np.int64) - 1)
    if rows.nnz == 0 and not hess:
        return None
    return Deps(rows, hess)


def call_with(func, values):
    """``func`` called with its first bound parameter by position, the rest by name."""
    items = list(values.items())
    return func(items[0][1], **dict(items[1:])) if items else func()


def _gather_rule(func, linear):
    def rule(ans, values, deps):
        return gather(func, linear, ans, values, deps)
    rule.takes_containers = True   # (lists of arrays: their items' ids)
    return rule


def _pad(ans, values, deps):
    mode = values.get("mode", "constant")
    if not isinstance(mode, str) or mode not in _COPYING_PAD_MODES:
        return dense(ans, deps, f"np.pad in mode {mode!r} at {pd.user_location()} has no "
                                "pattern rule: dense")
    if mode == "constant":
        values = dict(values, constant_values=0)
    return gather(np.pad, ("array",), ans, values, deps)


def _same(ans, values, deps):
    """Rows unchanged (``np.real``, ``np.conj``...: elementwise, one operand)."""
    found = [d for d in deps.values() if d is not None]
    return found[0] if found else None


def _register():
    from srcgrad.rules.registry import qualified_name

    for func, linear in _GATHERS.items():
        TABLE[qualified_name(func)] = _gather_rule(func, linear)
    TABLE["numpy.pad"] = _pad
    _pad.takes_containers = True
    TABLE["builtins.list"] = _gather_rule(list, ("v",))
    TABLE["builtins.tuple"] = _gather_rule(tuple, ("v",))
    if hasattr(np, "row_stack"):
        TABLE["numpy.row_stack"] = _gather_rule(np.vstack, ("tup",))
    for name in ("numpy.real", "numpy.conjugate", "srcgrad.runtime.aliasing.private_copy",
                 "srcgrad.runtime.guards.readonly", "srcgrad.runtime.core.snapshot"):
        TABLE[name] = _same


_register()
