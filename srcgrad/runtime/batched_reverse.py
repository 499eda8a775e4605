"""What batched reverse mode calls (``modes.reverse_batched``): every cotangent carries a
trailing axis of ``B`` rows, one Jacobian row (or one cotangent of a block) each, as the
tangents of batched forward mode do (``runtime.batched``).

A primal meets a cotangent as ``lift(x)`` (``x[..., None]``); the helpers here are the
single-row helpers of the backward sweep with the rows' axis kept last: the axes they sum,
spread or index are the primal's, never the rows'. An operation without a batched form
runs once per row (``map_rows``), its results stacked along the trailing axis.
"""

import numpy as np

from srcgrad.runtime.adjoints import (
    dot_adjoint_a,
    dot_adjoint_b,
    matmul_adjoint_a,
    matmul_adjoint_b,
    sum_adjoint,
)
from srcgrad.runtime.batched import UnbatchedCall, batch_index
from srcgrad.runtime.core import add_at
from srcgrad.runtime.dtypes import truncates
from srcgrad.runtime.shape_adjoints import concatenate_adjoint
from srcgrad.runtime.shapes import SavedShape, unbroadcast
from srcgrad.runtime.spreads import expand_summed
from srcgrad.runtime.wrt_values import check_wrt

__all__ = ["lifted", "batch_unbroadcast", "batch_expand_summed", "batch_spread_to",
           "batch_zeros_like", "batch_slots_like", "batch_dense", "batch_add_at",
           "batch_clear_item", "batch_restructure", "batch_wrt_zeros", "map_rows",
           "batch_rows", "batch_cross", "batch_dot_adjoint_a", "batch_dot_adjoint_b",
           "batch_matmul_adjoint_a", "batch_matmul_adjoint_b", "batch_get_item",
           "batch_concatenate_adjoint", "batch_array_adjoint", "batch_cast_adjoint",
           "batch_sum_adjoint"]

_NDARRAY = np.ndarray
_FLOAT64 = np.float64
_ADD_REDUCE = np.add.reduce
_TEMPLATES = (np.ndarray, SavedShape)


def lifted(x):
    """A primal as it meets a batched cotangent: an array with a trailing axis of length 1
    (``x[..., None]``), a number as it is; a list or tuple (which NumPy reads as an
    array) as that array lifted."""
    kind = type(x)
    if kind is _NDARRAY:
        return x[..., None]
    if kind is float or kind is int or kind is complex or kind is bool \
            or isinstance(x, np.generic):
        return x
    if kind is list or kind is tuple:
        return np.asarray(x)[..., None]
    raise UnbatchedCall(f"a {kind.__name__} met a batched cotangent")


def batch_rows(cotangent):
    """The number of rows a batched cotangent carries (its trailing axis)."""
    return np.shape(cotangent)[-1]


def _shape_and_real(x):
    """``x``'s shape and whether it is real, for an array, its ``SavedShape`` or a number;
    None for anything else (a list operand, an object)."""
    if type(x) in _TEMPLATES:
        return x.shape, x.dtype.kind != "c"
    if isinstance(x, (float, int, np.generic)) and not isinstance(x, bool):
        return (), not isinstance(x, (complex, np.complexfloating))
    if isinstance(x, complex):
        return (), False
    return None


def batch_unbroadcast(g, x):
    """``unbroadcast`` of every row: ``g`` (some shape + rows) summed to ``x``'s shape +
    rows, its real part for a real ``x``."""
    if type(g) is _NDARRAY and g.dtype.kind == "f":   # the usual cases first
        kind = type(x)
        if kind is _NDARRAY and g.shape[:-1] == x.shape and g.ndim:
            return g
        if kind is float or kind is _FLOAT64:   # a real number's: every primal axis summed
            if g.ndim == 1:
                return g
            if g.ndim == 2:
                return _ADD_REDUCE(g, axis=0)
    found = _shape_and_real(x)
    if found is None:
        return map_rows(lambda row: unbroadcast(row, x), g)
    shape, real = found
    if type(g) is not _NDARRAY:
        g = np.asarray(g)
    if g.dtype.kind == "c" and real:
        g = g.real
    if g.ndim == 0:
        raise UnbatchedCall("a cotangent without its rows' axis")
    own = g.shape[:-1]
    if own == shape:   # nothing to sum, as a rule
        return g
    lead = len(own) - len(shape)
    if lead < 0:   # (the rows' axis is last: leading axes of length one broadcast)
        return np.broadcast_to(g, tuple(shape) + g.shape[-1:])
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                      if n == 1 and own[lead + i] != 1)
    if axes:
        g = np.add.reduce(g, axis=axes, keepdims=True)
        g = g.reshape(tuple(shape) + g.shape[-1:])
    if g.shape[:-1] != tuple(shape):
        g = np.broadcast_to(g, tuple(shape) + g.shape[-1:])
    return g


def batch_expand_summed(g, a, axis, keepdims):
    """``expand_summed`` of every row: the summed axes of ``a`` put back as length-one
    axes before the rows' axis."""
    if type(a) not in _TEMPLATES or not a.shape:
        return map_rows(lambda row: expand_summed(row, a, axis, keepdims), g)
    dtype = a.dtype if a.dtype.kind in "fc" else np.dtype(np.float64)
    g = np.asarray(g, dtype=dtype)
    ndim = len(a.shape)
    if axis is None:
        return g.reshape((1,) * ndim + g.shape[-1:])
    if not keepdims:
        axes = axis if type(axis) is tuple else (axis,)
        g = np.expand_dims(g, tuple(sorted(ax % ndim for ax in axes)))
    return g


def batch_sum_adjoint(g, a, axis, keepdims):
    """``sum_adjoint`` of every row: a new array shaped ``a``'s shape + rows."""
    if type(a) not in _TEMPLATES or not a.shape:
        return map_rows(lambda row: sum_adjoint(row, a, axis, keepdims), g)
    return batch_spread_to(batch_expand_summed(g, a, axis, keepdims), a)


def batch_spread_to(value, a):
    """``spread_to`` of every row: ``value`` broadcast to ``a``'s shape + rows."""
    if type(a) not in _TEMPLATES:
        return value
    own = np.shape(value)
    shape = tuple(a.shape) + own[-1:]
    if own == shape:
        return value
    full = np.broadcast_shapes(own, shape)
    if full == own:
        return value
    return np.array(np.broadcast_to(value, full))


def batch_zeros_like(x, rows):
    """``zeros_like`` of every row: ``x``'s shape + rows, in its float (complex) dtype; a
    list of them for a list or tuple (``None`` items stay ``None``), ``{}`` for a dict or
    another object, as ``zeros_like`` gives."""
    if type(x) in _TEMPLATES:
        dtype = x.dtype if x.dtype.kind in "fc" else np.float64
        return np.zeros(tuple(x.shape) + (rows,), dtype=dtype)
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return [None if v is None else batch_zeros_like(v, rows) for v in x]
    if isinstance(x, np.generic):
        dtype = x.dtype if x.dtype.kind in "fc" else np.float64
        return np.zeros(rows, dtype=dtype)
    if isinstance(x, (int, float, complex)) or x is None:
        return np.zeros(rows, dtype=complex if isinstance(x, complex) else np.float64)
    if isinstance(x, dict) or not hasattr(x, "shape"):
        return {}
    raise UnbatchedCall(f"a zero cotangent of a {type(x).__name__}")


def batch_slots_like(x, rows):
    """``slots_like`` of every row: ``None`` slots for a list or tuple, else zeros."""
    if type(x) is list or type(x) is tuple:
        return [None] * len(x)
    return batch_zeros_like(x, rows)


def batch_dense(d, x, rows):
    """``dense`` of every row: each ``None`` slot made the batched zeros of its item."""
    if d is None:
        return batch_zeros_like(x, rows)
    if type(d) is list:
        if any(item is None or type(item) in (list, dict) for item in d):
            items = list(x)
            return [batch_dense(di, items[i] if i < len(items) else None, rows)
                    for i, di in enumerate(d)]
        return d
    if type(d) is dict:
        if any(item is None or type(item) in (list, dict) for item in d.values()):
            return {k: batch_dense(v, x[k], rows) for k, v in d.items()}
    return d


def batch_add_at(dx, index, g):
    """``add_at`` of every row (``dx[index] += g``): the index reaches the primal's axes,
    an ``...`` in it followed by the rows' axis."""
    if type(dx) is _NDARRAY:
        kind = type(index)
        if kind is int or kind is slice:   # a view of the rows at that index
            view = dx[index]
            view += g
            return dx
        return add_at(dx, batch_index(index), g)
    if type(dx) is list or type(dx) is dict:
        return add_at(dx, index, g)
    raise UnbatchedCall(f"an item added into a {type(dx).__name__}")


def batch_clear_item(dx, index):
    """``clear_item`` of every row: the cotangent of ``x[index]`` zeroed (a list's slot
    made a zero not built)."""
    if type(dx) is dict:
        dx.pop(index, None)
    elif type(dx) is list:
        dx[index] = None
    else:
        dx[batch_index(index)] = 0


def batch_restructure(dx, x, rows):
    """``restructure`` for an array or number argument (what batched Jacobians take), or a
    list or tuple of them."""
    if dx is None:
        return batch_zeros_like(x, rows)
    if type(x) in _TEMPLATES or isinstance(x, (float, int, complex, np.generic)):
        return dx
    if (type(x) is list or type(x) is tuple) and type(dx) in (list, tuple) \
            and len(dx) == len(x):
        return type(x)(batch_restructure(d, v, rows) for d, v in zip(dx, x))
    raise UnbatchedCall(f"a gradient in the structure of a {type(x).__name__}")


def batch_wrt_zeros(x, name, rows):
    """``wrt_zeros`` of every row (the argument checked to hold a number)."""
    check_wrt(x, name)
    return batch_zeros_like(x, rows)


def batch_cross(a, b):
    """``np.cross(a, b)`` (vectors on the last axis), one of ``a``, ``b`` a batched
    cotangent and the other a lifted primal: their vectors on the axis before the
    rows'."""
    if np.shape(a)[-2:-1] == (3,) and np.shape(b)[-2:-1] == (3,):
        a0, a1, a2 = a[..., 0, :], a[..., 1, :], a[..., 2, :]
        b0, b1, b2 = b[..., 0, :], b[..., 1, :], b[..., 2, :]
        first = a1 * b2 - a2 * b1
        out = np.empty(first.shape[:-1] + (3,) + first.shape[-1:], dtype=first.dtype)
        out[..., 0, :] = first
        out[..., 1, :] = a2 * b0 - a0 * b2
        out[..., 2, :] = a0 * b1 - a1 * b0
        return out
    return np.cross(a, b, axisa=-2, axisb=-2, axisc=-2)


def batch_dot_adjoint_a(g, a, b):
    """``dot_adjoint_a`` of every row."""
    if np.ndim(a) >= 1 and np.ndim(b) == 1 and type(g) is _NDARRAY:
        return g[..., None, :] * lifted(b)   # (the outer product of each row)
    return map_rows(lambda row: dot_adjoint_a(row, a, b), g)


def batch_dot_adjoint_b(g, a, b):
    """``dot_adjoint_b`` of every row."""
    if np.ndim(a) == 1 and np.ndim(b) == 1 and type(g) is _NDARRAY:
        return lifted(a) * g   # (each row's a * g)
    if np.ndim(a) >= 1 and np.ndim(b) == 1 and type(g) is _NDARRAY:
        return dot_adjoint_b(g, a, b)   # (sums a's leading axes: the rows' axis stays last)
    return map_rows(lambda row: dot_adjoint_b(row, a, b), g)


def batch_matmul_adjoint_a(g, a, b):
    """``matmul_adjoint_a`` of every row: one ``einsum`` for vector and matrix
    operands, each row otherwise."""
    subscripts = _matmul_subscripts(a, b)
    if subscripts is None or type(g) is not _NDARRAY:
        return map_rows(lambda row: matmul_adjoint_a(row, a, b), g)
    a_sub, b_sub, g_sub = subscripts
    return batch_unbroadcast(np.einsum(f"{g_sub},{b_sub}->{a_sub}z", g, b), a)


def batch_matmul_adjoint_b(g, a, b):
    """``matmul_adjoint_b`` of every row (see ``batch_matmul_adjoint_a``)."""
    subscripts = _matmul_subscripts(a, b)
    if subscripts is None or type(g) is not _NDARRAY:
        return map_rows(lambda row: matmul_adjoint_b(row, a, b), g)
    a_sub, b_sub, g_sub = subscripts
    return batch_unbroadcast(np.einsum(f"{g_sub},{a_sub}->{b_sub}z", g, a), b)


def _matmul_subscripts(a, b):
    """``a @ b``'s einsum subscripts (``z``: the rows' axis of the cotangent) for ndarray
    vectors and matrices, else None."""
    if type(a) is not _NDARRAY or type(b) is not _NDARRAY or not 1 <= a.ndim <= 2 \
            or not 1 <= b.ndim <= 2:
        return None
    a_sub = "mn" if a.ndim == 2 else "n"
    b_sub = "nk" if b.ndim == 2 else "n"
    return a_sub, b_sub, ("m" if a.ndim == 2 else "") + ("k" if b.ndim == 2 else "") + "z"


def batch_get_item(dx, index, value, rows):
    """``get_item`` of every row: ``dx[index]``, or the batched zeros of ``value`` where
    a sparse cotangent lacks it or a list slot holds a zero not built."""
    kind = type(dx)
    if kind is dict:
        return dx[index] if index in dx else batch_zeros_like(value, rows)
    if kind is list:
        item = dx[index]
        if item is None or type(item) is float and item == 0.0:
            return batch_zeros_like(value, rows)
        return item
    if kind is _NDARRAY:
        return dx[batch_index(index)]
    raise UnbatchedCall(f"an item of a {kind.__name__} cotangent")


def batch_concatenate_adjoint(g, arrays, axis):
    """``concatenate_adjoint`` of every row: ``g`` sliced along the primal axis ``axis``
    into each array's piece (arrays of one rank); each row otherwise."""
    ndim = np.ndim(g) - 1
    if type(g) is not _NDARRAY or not isinstance(axis, (int, np.integer)) or ndim < 1 \
            or not isinstance(arrays, (list, tuple)) \
            or any(type(a) is not _NDARRAY or a.ndim != ndim for a in arrays):
        return map_rows(lambda row: concatenate_adjoint(row, arrays, axis), g)
    axis = int(axis) % ndim
    index = [slice(None)] * (ndim + 1)
    pieces, start = [], 0
    for a in arrays:
        index[axis] = slice(start, start + a.shape[axis])
        pieces.append(g[tuple(index)])
        start += a.shape[axis]
    return pieces


def batch_array_adjoint(g, obj):
    """``array_adjoint`` of every row (the cotangent of ``np.array(obj)`` in ``obj``'s
    nesting): items indexed on the primal's leading axes."""
    if isinstance(obj, (list, tuple)):
        if type(g) is not _NDARRAY:
            raise UnbatchedCall(f"the items of a {type(g).__name__} cotangent")
        return [batch_array_adjoint(g[i], item) for i, item in enumerate(obj)]
    return batch_unbroadcast(g, obj) if type(obj) is _NDARRAY else g


def batch_cast_adjoint(g, a, dtype, rows):
    """``cast_adjoint`` of every row."""
    return batch_zeros_like(a, rows) if truncates(dtype) else batch_array_adjoint(g, a)


def map_rows(fn, *cotangents):
    """``fn`` applied to each row of ``cotangents`` (arrays sliced on their trailing axis;
    lists, tuples and dicts item by item; ``None`` as it is), the results stacked on a new
    trailing axis: the batched form of any step of a backward sweep, which is linear in
    its cotangents."""
    rows = _rows(cotangents)
    if rows is None:
        raise UnbatchedCall("map_rows: no batched cotangent among its arguments")
    return _stack([fn(*(_row(c, b) for c in cotangents)) for b in range(rows)])


def _rows(value):
    if type(value) is _NDARRAY:
        return value.shape[-1] if value.ndim else None
    items = value.values() if type(value) is dict else value \
        if isinstance(value, (list, tuple)) else ()
    for item in items:
        found = _rows(item)
        if found is not None:
            return found
    return None


def _row(value, b):
    if type(value) is _NDARRAY:
        return value[..., b]
    if type(value) is dict:
        return {k: _row(v, b) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_row(item, b) for item in value)
    if value is None or isinstance(value, (float, int, complex, np.generic)):
        return value
    raise UnbatchedCall(f"a cotangent held in a {type(value).__name__}")


def _stack(results):
    first = results[0]
    if first is None:
        if any(r is not None for r in results):
            raise UnbatchedCall("rows with and without a cotangent")
        return None
    if type(first) is dict:
        if any(type(r) is not dict or r.keys() != first.keys() for r in results):
            raise UnbatchedCall("rows with different keys")
        return {k: _stack([r[k] for r in results]) for k in first}
    if isinstance(first, (list, tuple)) and not hasattr(first, "_fields"):
        if any(len(r) != len(first) for r in results):
            raise UnbatchedCall("rows of different lengths")
        return type(first)(_stack([r[i] for r in results]) for i in range(len(first)))
    if isinstance(first, (_NDARRAY, float, int, complex, np.generic)):
        return np.stack([np.asarray(r) for r in results], axis=-1)
    raise UnbatchedCall(f"a cotangent held in a {type(first).__name__}")

