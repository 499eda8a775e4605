"""Rules along one axis: sorts (an element may land anywhere in its lane), finite
differences of ``np.gradient`` (an element and its two neighbours in each lane, three at
an edge), and 1-D convolution.

A sort's permutation depends on the values: each output element depends on its whole
lane (true for every input), which is the global pattern; the exact permutation at one
point would only be local.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from srcgrad.sparse import pattern_deps as pd
from srcgrad.sparse.pattern_deps import Term
from srcgrad.sparse.pattern_rules import TABLE, dense


def _lanes(shape, axis):
    """The lane of each element along ``axis`` (None: the flattened array is one lane),
    and the number of lanes."""
    if axis is None or len(shape) == 0:
        return np.zeros(int(np.prod(shape, dtype=np.int64)), dtype=np.int64), 1
    axis = int(axis) % len(shape)
    kept = [1 if i == axis else s for i, s in enumerate(shape)]
    count = int(np.prod(kept, dtype=np.int64))
    return np.broadcast_to(np.arange(count).reshape(kept), shape).ravel(), count


def _sort(ans, values, deps):
    d = deps.get("a")
    if d is None:
        return None
    axis = values.get("axis", -1)
    lanes, count = _lanes(np.shape(values["a"]), axis)
    if axis is None:   # sorted flat
        lanes_out = np.zeros(pd.size_of(ans), dtype=np.int64)
    else:
        lanes_out = lanes
    union = pd.group_rows(d.rows, lanes, count)
    return pd.made(pd.take_rows(union, lanes_out), [d])


def _partition(ans, values, deps):
    return _sort(ans, dict(values, axis=values.get("axis", -1)), deps)


def _neighbours(length, edge_order, uniform):
    """(output index, input index) pairs of ``np.gradient`` along one lane (an interior
    element's own value counts only with coordinates, unevenly spaced)."""
    pairs = []
    for i in range(length):
        if 0 < i < length - 1:
            near = (i - 1, i + 1) if uniform else (i - 1, i, i + 1)
        elif i == 0:
            near = tuple(range(min(length, edge_order + 1)))
        else:
            near = tuple(range(max(0, length - edge_order - 1), length))
        pairs.extend((i, j) for j in near)
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def _gradient(ans, values, deps):
    d = deps.get("f")
    if d is None or any(v is not None for p, v in deps.items() if p != "f"):
        return dense(ans, deps, f"np.gradient with differentiated spacing at "
                                f"{pd.user_location()}: dense")
    f = np.asarray(values["f"])
    axis = values.get("axis")
    axes = range(f.ndim) if axis is None else (
        [axis] if np.ndim(axis) == 0 else list(axis))
    ids = pd.element_ids(f)
    spacing = values.get("spacing")
    spacings = spacing if isinstance(spacing, (list, tuple)) else [spacing]
    uniform = all(s is None or np.ndim(s) == 0 for s in spacings)
    outputs = []
    for ax in axes:
        moved = np.moveaxis(ids, ax, -1)
        pairs = _neighbours(moved.shape[-1], int(values.get("edge_order", 1)), uniform)
        lanes = moved.reshape(-1, moved.shape[-1])
        out, inputs = lanes[:, pairs[:, 0]].ravel(), lanes[:, pairs[:, 1]].ravel()
        matrix = sp.csr_array((np.ones(out.size, dtype=bool), (out, inputs)),
                              shape=(f.size, f.size))
        outputs.append(pd.made(pd.combine_rows(matrix, d.rows), [d]))
    return type(ans)(outputs) if isinstance(ans, (list, tuple)) else outputs[0]


def _convolve(ans, values, deps):
    a, v = np.ravel(values["a"]), np.ravel(values["v"])
    da, dv = deps.get("a"), deps.get("v")
    if da is None and dv is None:
        return None
    full = a.size + v.size - 1
    offset = (full - pd.size_of(ans)) // 2 if values.get("mode", "full") != "full" else 0
    i, j = np.meshgrid(np.arange(a.size), np.arange(v.size), indexing="ij")
    k = (i + j).ravel() - offset
    i, j = i.ravel(), j.ravel()
    keep = (k >= 0) & (k < pd.size_of(ans))
    keep &= _may_be_nonzero(a, da)[i] & _may_be_nonzero(v, dv)[j]
    parts, inputs = [], [d for d in (da, dv) if d is not None]
    for ids, d, size in ((i, da, a.size), (j, dv, v.size)):
        if d is not None:
            matrix = sp.csr_array((np.ones(int(keep.sum()), dtype=bool), (k[keep], ids[keep])),
                                  shape=(pd.size_of(ans), size))
            parts.append(pd.combine_rows(matrix, d.rows))
    terms = ()
    if da is not None and dv is not None and pd.merged_hess(inputs) is not None:
        terms = [Term(pd.take_rows(da.rows, i[keep]), pd.take_rows(dv.rows, j[keep]))]
    return pd.made(pd.union(*parts), inputs, terms)


def _may_be_nonzero(value, deps):
    mask = np.ravel(value) != 0
    if deps is not None:
        mask = mask | (np.diff(deps.rows.indptr) > 0)
    return mask


def _builtin_sum(ans, values, deps):
    """``sum(items, start)``: a list's items added (broadcast), or an array's rows."""
    items, found = values["iterable"], deps.get("iterable")
    start = deps.get("start")
    if isinstance(items, np.ndarray):
        groups = np.broadcast_to(np.arange(int(np.prod(items.shape[1:], dtype=np.int64))
                                           ).reshape(items.shape[1:]), items.shape)
        parts = [] if found is None else [(pd.group_rows(found.rows, groups, groups[0].size),
                                           items.shape[1:])]
    elif isinstance(items, (list, tuple)):
        dlist = found if isinstance(found, (list, tuple)) else [None] * len(items)
        parts = [(d.rows, np.shape(v)) for v, d in zip(items, dlist) if d is not None]
    else:
        return dense(ans, deps, f"sum() of a {type(items).__name__} at {pd.user_location()}"
                                ": dense")
    if start is not None:
        parts.append((start.rows, np.shape(values["start"])))
    inputs = [d for d in pd_leaves([found, start])]
    if not parts:
        return None
    shape = np.shape(ans)
    rows = pd.union(*[pd.broadcast_rows(r, s, shape) for r, s in parts])
    return pd.made(rows, inputs)


def pd_leaves(items):
    from srcgrad.sparse.pattern_rules import leaves

    return [d for item in items for d in leaves(item)]


TABLE["numpy.sort"] = _sort
TABLE["numpy.partition"] = _partition
TABLE["numpy.gradient"] = _gradient
TABLE["numpy.convolve"] = _convolve
TABLE["builtins.sum"] = _builtin_sum
_builtin_sum.takes_containers = True   # type: ignore[attr-defined]
