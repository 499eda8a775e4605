"""Casts, fills, selections and lane-coupled functions.

- casts (``np.float32(x)``, ``np.asanyarray``, ``np.imag``, ``np.angle``): rows kept;
- fills (``np.full(shape, v)``): every element takes ``v``'s rows, broadcast;
- ``np.select``: each element may come from any choice or the default;
- ``scipy.special.softmax`` / ``log_softmax``: each element of a lane depends on the
  whole lane (nonlinearly); ``logsumexp`` reduces a lane (``pattern_reductions``);
- ``np.trapezoid``: a linear reduction of ``y`` along its axis;
- ``np.kron``: as ``einsum('ij,kl->ikjl')``; ``np.vdot``: the flattened inner product;
- a dict's ``values()``, ``items()``, ``get()``: its entries' dependencies.
"""

from __future__ import annotations

import numpy as np

from srcgrad.sparse import pattern_deps as pd
from srcgrad.sparse.pattern_deps import Term
from srcgrad.sparse.pattern_einsum import einsum_pattern
from srcgrad.sparse.pattern_lanes import _lanes
from srcgrad.sparse.pattern_products import _or_dense, matrix_product
from srcgrad.sparse.pattern_reductions import _reduction
from srcgrad.sparse.pattern_rules import TABLE, dense


def _kept(ans, values, deps):
    """A cast: each element keeps its rows (a number cast to an array's shape broadcast)."""
    found = [(p, d) for p, d in deps.items() if d is not None]
    if len(found) != 1 or not hasattr(found[0][1], "rows"):
        return dense(ans, deps, f"a cast of several values at {pd.user_location()}: dense")
    p, d = found[0]
    rows = pd.broadcast_rows(d.rows, np.shape(values[p]), np.shape(ans)) \
        if np.size(values[p]) != pd.size_of(ans) else d.rows
    return pd.made(rows, [d])


def _broadcast_union(ans, values, deps):
    """Each element may take any input's element at its position (broadcast)."""
    shape = np.shape(ans)
    parts, inputs = [], []

    def add(value, d):
        if isinstance(d, (list, tuple)):
            for v, di in zip(value, d):
                add(v, di)
        elif d is not None:
            parts.append(pd.broadcast_rows(d.rows, np.shape(value), shape))
            inputs.append(d)

    for p, d in deps.items():
        add(values[p], d)
    return pd.made(pd.union(*parts), inputs) if parts else None


def _softmax(ans, values, deps):
    d = deps.get("x")
    if d is None:
        return None
    lanes, count = _lanes(np.shape(values["x"]), values.get("axis"))
    lane_rows = pd.group_rows(d.rows, lanes, count)
    rows = pd.take_rows(lane_rows, lanes)
    terms = [Term(lane_rows, lane_rows)] if d.hess is not None else ()
    return pd.made(rows, [d], terms)


def _trapezoid(ans, values, deps):
    if any(d is not None for p, d in deps.items() if p != "y"):
        return dense(ans, deps, f"np.trapezoid with differentiated coordinates at "
                                f"{pd.user_location()}: dense")
    return _reduction("y", nonlinear=False)(ans, dict(values, axis=values.get("axis", -1)),
                                            deps)


def _kron(ans, values, deps):
    a, b = values["a"], values["b"]
    if np.ndim(a) == np.ndim(b) == 1:
        found = einsum_pattern(ans, ["i", "k"], "ik", [a, b], [deps.get("a"), deps.get("b")])
    elif np.ndim(a) == np.ndim(b) == 2:
        found = einsum_pattern(ans, ["ij", "kl"], "ikjl", [a, b],
                               [deps.get("a"), deps.get("b")])
    else:
        found = pd.UNCOVERED
    return _or_dense(found, ans, deps, "np.kron")


def _vdot(ans, values, deps):
    a, b = np.ravel(values["a"]), np.ravel(values["b"])
    return _or_dense(matrix_product(ans, a, b, deps.get("a"), deps.get("b")), ans, deps,
                     "np.vdot")


def _full(ans, values, deps):
    d = deps.get("fill_value")   # (np.full_like's ``a`` gives only the shape)
    if d is None or any(v is not None for p, v in deps.items() if p not in ("fill_value", "a")):
        return dense(ans, deps, f"np.full at {pd.user_location()}: dense")
    return pd.made(pd.broadcast_rows(d.rows, np.shape(values["fill_value"]), np.shape(ans)),
                   [d])


def _dict_values(ans, values, deps):
    """``list(d.values())``: the dict's entries' dependencies, in order."""
    found = deps.get("d")
    return None if found is None else [found.get(k) for k in values["d"]]


def _dict_items(ans, values, deps):
    found = deps.get("d")
    return None if found is None else [(None, found.get(k)) for k in values["d"]]


def _dict_get(ans, values, deps):
    found, key = deps.get("d"), values["key"]
    if found is not None and key in values["d"]:
        return found.get(key)
    return deps.get("default")


def _register():
    for name in ("numpy.imag", "numpy.angle", "numpy.float32",
                 "numpy.float64", "numpy.longdouble", "numpy.complex64", "numpy.complex128",
                 "numpy.clongdouble"):
        TABLE[name] = _kept
    TABLE["numpy.select"] = _broadcast_union
    for rule in (_broadcast_union, _dict_values, _dict_items, _dict_get):
        rule.takes_containers = True   # type: ignore[attr-defined]
    TABLE["numpy.full"] = TABLE["numpy.full_like"] = _full
    TABLE["scipy.special.softmax"] = TABLE["scipy.special.log_softmax"] = _softmax
    TABLE["scipy.special.logsumexp"] = _reduction("a", nonlinear=True)
    TABLE["numpy.trapezoid"] = _trapezoid
    TABLE["numpy.kron"] = _kron
    TABLE["numpy.vdot"] = _vdot
    TABLE["srcgrad.runtime.core.dict_values"] = _dict_values
    TABLE["srcgrad.runtime.core.dict_items"] = _dict_items
    TABLE["srcgrad.runtime.container_adjoints.dict_get"] = _dict_get


_register()
