"""What batched forward mode calls (``modes.forward_batched``): every tangent carries a
trailing axis of ``B`` directions, one Jacobian column each.

A primal array ``x`` meets a tangent as ``lift(x)`` (``x[..., None]``): NumPy aligns
shapes from the right, so ``x_dot * lift(y)`` multiplies each direction by ``y``
whatever the two operands' ranks. An operation without a batched form runs once per
direction (``map_columns``), stacking the results along the trailing axis.
"""

import numpy as np

__all__ = ["lift", "batch_zeros", "batch_broadcast", "map_columns", "batch_size",
           "batch_index", "batch_reduce"]

_NDARRAY = np.ndarray


def lift(x):
    """``x`` with a trailing axis of length 1 (arrays); numbers as they are."""
    if type(x) is _NDARRAY:
        return x[..., None]
    return x


def batch_index(index):
    """An index of a primal, as its tangent takes it: the directions' axis comes last, so
    an index with an ``...`` gets a full slice after it (``x[..., 0]`` is
    ``x_dot[..., 0, :]``); any other index reaches the same leading axes already."""
    if index is Ellipsis:
        return (Ellipsis, _ALL)
    if type(index) is tuple and any(item is Ellipsis for item in index):
        return index + (_ALL,)
    return index


_ALL = slice(None)


def batch_size(tangent):
    """The number of directions a tangent carries (its trailing axis)."""
    return np.shape(tangent)[-1]


def batch_zeros(x, size):
    """The zero tangent of ``x`` for ``size`` directions: ``x``'s shape + ``(size,)``;
    a list or tuple of them for a list or tuple."""
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return [batch_zeros(item, size) for item in x]
    if x is None:
        return None
    dtype = np.result_type(x) if isinstance(x, (_NDARRAY, np.generic, int, float, complex)) \
        else np.float64
    if dtype.kind not in "fc":
        dtype = np.float64
    return np.zeros(np.shape(x) + (size,), dtype=dtype)


def batch_broadcast(tangent, ans):
    """``tangent`` broadcast to ``ans``'s shape + its directions (the batched
    ``broadcast_tangent``)."""
    shape = np.shape(ans) + np.shape(tangent)[-1:]
    if np.shape(tangent) == shape:
        return tangent
    return np.broadcast_to(tangent, shape)


def batch_reduce(fn, tangent, axis=None, keepdims=False):
    """``fn(x_dot, axis, keepdims)`` (``np.sum``, ``np.mean``) of every direction at once:
    the axes counted among the primal's, never the directions' axis."""
    tangent = np.asarray(tangent)
    ndim = tangent.ndim - 1
    axes = tuple(range(ndim)) if axis is None else \
        tuple(axis) if isinstance(axis, tuple) else (axis,)
    if not all(isinstance(a, (int, np.integer)) and -ndim <= a < ndim for a in axes):
        return map_columns(lambda t: fn(t, axis=axis, keepdims=keepdims), tangent)
    return fn(tangent, axis=tuple(int(a) % ndim for a in axes), keepdims=keepdims)


def map_columns(fn, *tangents):
    """``fn`` applied to each direction's column of ``tangents`` (arrays sliced on their
    trailing axis; lists and tuples item by item), the results stacked on a new
    trailing axis: the batched form of an operation linear in its tangents."""
    size = _size(tangents)
    if size is None:
        raise ValueError("map_columns: no batched tangent among its arguments")
    results = [fn(*(_column(t, b) for t in tangents)) for b in range(size)]
    return _stack(results)


def _size(value):
    if type(value) is _NDARRAY:
        return value.shape[-1] if value.ndim else None
    if isinstance(value, (list, tuple)):
        for item in value:
            found = _size(item)
            if found is not None:
                return found
    return None


def _column(value, b):
    if type(value) is _NDARRAY:
        return value[..., b]
    if isinstance(value, (list, tuple)):
        return type(value)(_column(item, b) for item in value)
    return value


def _stack(results):
    first = results[0]
    if isinstance(first, (list, tuple)):
        return type(first)(_stack([r[i] for r in results]) for i in range(len(first)))
    return np.stack([np.asarray(r) for r in results], axis=-1)
