"""Reductions: each output element is the OR of a group of input rows.

``np.sum(x, axis=1)`` of a ``(3, 4)`` array: element ``(i, j)`` belongs to group ``i``;
the output's rows are ``group_rows(x_rows, groups, 3)``. Prefix reductions
(``cumsum``) OR every row before an element along the axis; ``np.diff`` ORs ``n + 1``
shifted neighbours; ``np.trace`` sums a diagonal. A reduction that is nonlinear in its
group (``prod``, ``var``, ``norm``) adds, at second order, every pair of a group's
elements (``Term(rows, rows)`` of the output's rows).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from srcgrad.sparse import pattern_deps as pd
from srcgrad.sparse.pattern_deps import Term
from srcgrad.sparse.pattern_rules import TABLE, dense


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        return tuple(int(a) % ndim for a in axis) if ndim else ()
    return (int(axis) % ndim,) if ndim else ()


def reduce_groups(shape, axis):
    """(group of each element, number of groups) for a reduction over ``axis``."""
    axes = _axes(axis, len(shape))
    kept = [1 if i in axes else s for i, s in enumerate(shape)]
    count = int(np.prod(kept, dtype=np.int64))
    groups = np.broadcast_to(np.arange(count, dtype=np.int64).reshape(kept), shape)
    return groups, count


def _reduction(param, nonlinear):
    def rule(ans, values, deps):
        d = deps.get(param)
        if d is None:
            return None
        groups, count = reduce_groups(np.shape(values[param]), values.get("axis"))
        if count != pd.size_of(ans):
            return dense(ans, deps, f"a reduction at {pd.user_location()} whose result "
                                    "has an unexpected size: dense")
        rows = pd.group_rows(d.rows, groups, count)
        terms = [Term(rows, rows)] if nonlinear and d.hess is not None else ()
        return pd.made(rows, [d], terms)
    return rule


def _prefix(nonlinear):
    """``np.cumsum(a, axis)``: element ``k`` along the axis depends on elements 0..k."""
    def rule(ans, values, deps):
        d = deps.get("a")
        if d is None:
            return None
        value, axis = values["a"], values.get("axis")
        ids = pd.element_ids(value).ravel() if axis is None or np.ndim(value) <= 1 \
            else np.moveaxis(pd.element_ids(value), axis, -1)
        lanes = ids.reshape(-1, ids.shape[-1] if ids.ndim else 1)
        later, earlier = np.tril_indices(lanes.shape[1])
        out, inputs = lanes[:, later].ravel(), lanes[:, earlier].ravel()
        size = pd.size_of(value)
        matrix = sp.csr_array((np.ones(out.size, dtype=bool), (out, inputs)), shape=(size, size))
        rows = pd.combine_rows(matrix, d.rows)
        terms = [Term(rows, rows)] if nonlinear and d.hess is not None else ()
        return pd.made(rows, [d], terms)
    return rule


def _diff(ans, values, deps):
    """``np.diff(a, n, axis, prepend, append)``: element ``k`` along the axis combines
    elements ``k .. k + n`` of ``a`` with ``prepend``/``append`` joined."""
    inputs = [d for d in deps.values() if d is not None]
    d = deps.get("a")
    if d is None or len(inputs) > 1:
        return dense(ans, deps, f"np.diff of a differentiated prepend/append at "
                                f"{pd.user_location()}: dense")
    a, n, axis = np.asarray(values["a"]), int(values.get("n", 1)), values.get("axis", -1)
    ids = pd.element_ids(a)
    pieces = []
    for key in ("prepend", "append"):
        extra = values.get(key)
        pieces.append(None if extra is None else
                      np.full(np.shape(np.broadcast_to(extra, _along(a.shape, axis, 1)))
                              if np.ndim(extra) == 0 else np.shape(extra), -1))
    joined = np.concatenate([p for p in (pieces[0], ids, pieces[1]) if p is not None],
                            axis=axis)
    length = joined.shape[axis] - n
    rows = [pd.take_rows(d.rows, np.take(joined, np.arange(k, k + length), axis=axis))
            for k in range(n + 1)]
    return pd.made(pd.union(*rows), [d])


def _along(shape, axis, length):
    shape = list(shape)
    shape[axis] = length
    return tuple(shape)


def _trace(ans, values, deps):
    d = deps.get("a")
    if d is None:
        return None
    a = values["a"]
    diagonal = np.diagonal(pd.element_ids(a), values.get("offset", 0),
                           values.get("axis1", 0), values.get("axis2", 1))
    groups = np.full(pd.size_of(a), -1, dtype=np.int64)
    out_ids = np.arange(int(np.prod(diagonal.shape[:-1], dtype=np.int64))).reshape(
        diagonal.shape[:-1])
    groups[diagonal.ravel()] = np.broadcast_to(out_ids[..., None], diagonal.shape).ravel()
    rows = pd.group_rows(d.rows, groups, out_ids.size)
    return pd.made(rows, [d])


def _register():
    for name, param in (("numpy.sum", "a"), ("numpy.mean", "a"), ("numpy.nansum", "a"),
                        ("numpy.nanmean", "a")):
        TABLE[name] = _reduction(param, nonlinear=False)
    # piecewise linear in the group: no second derivative where they are differentiable
    for name in ("numpy.max", "numpy.min", "numpy.amax", "numpy.amin", "numpy.nanmax",
                 "numpy.nanmin", "numpy.ptp", "numpy.median"):
        TABLE[name] = _reduction("a", nonlinear=False)
    for name in ("numpy.prod", "numpy.var", "numpy.std"):
        TABLE[name] = _reduction("a", nonlinear=True)
    TABLE["numpy.linalg.norm"] = _reduction("x", nonlinear=True)
    TABLE["numpy.cumsum"] = _prefix(nonlinear=False)
    TABLE["numpy.cumprod"] = _prefix(nonlinear=True)
    TABLE["numpy.diff"] = _diff
    TABLE["numpy.trace"] = _trace


_register()
