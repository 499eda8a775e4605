"""What batched forward mode calls (``modes.forward_batched``): every tangent carries a
trailing axis of ``B`` directions, one Jacobian column each.

A primal array ``x`` meets a tangent as ``lift(x)`` (``x[..., None]``): NumPy aligns
shapes from the right, so ``x_dot * lift(y)`` multiplies each direction by ``y``
whatever the two operands' ranks. An operation without a batched form runs once per
direction (``map_columns``), stacking the results along the trailing axis.
"""

import operator

import numpy as np

__all__ = ["lift", "batch_zeros", "batch_broadcast", "map_columns", "batch_size",
           "batch_index", "batch_reduce", "batched_dynamic_jvp", "UnbatchedCall",
           "batch_matmul", "batch_join", "batch_reshape", "batch_transpose", "batch_outer",
           "batch_roll"]

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


def batch_matmul(fn, a, b, tangent_first):
    """``fn(a_dot, b)`` (``tangent_first``) or ``fn(a, b_dot)`` (``fn``: ``np.matmul`` or
    ``np.dot``, which agree on vectors and matrices; None: the ``@`` operator) for every
    direction at once, where both primal operands are vectors or matrices; any other
    rank runs per direction."""
    if fn is None:
        fn = operator.matmul
    dot, primal = (a, b) if tangent_first else (b, a)
    if type(dot) is not _NDARRAY or not 2 <= dot.ndim <= 3 or not 1 <= np.ndim(primal) <= 2:
        if tangent_first:
            return map_columns(lambda t: fn(t, b), a)
        return map_columns(lambda t: fn(a, t), b)
    if tangent_first:   # a_dot: a's shape + (B,)
        left = "kn"[2 - (dot.ndim - 1):] + "z"
        right = "nm"[:np.ndim(primal)]
    else:
        left = "kn"[2 - np.ndim(primal):]
        right = "nm"[:dot.ndim - 1] + "z"
    out = "".join(c for c in left + right if c in "km") + "z"
    operands = (dot, primal) if tangent_first else (primal, dot)
    return np.einsum(f"{left},{right}->{out}", *operands)


def batch_join(fn, tangents, axis=0):
    """``np.stack`` / ``np.concatenate`` of tangents along a primal axis (counted among
    the primal's axes); ``axis=None`` runs per direction."""
    if axis is None or not isinstance(axis, (int, np.integer)):
        return map_columns(lambda *ts: fn(list(ts), axis=axis), *tangents)
    if axis < 0:
        axis -= 1
    return fn(list(tangents), axis=axis)


def batch_reshape(tangent, *shape):
    """``t.reshape(shape)`` (``t.ravel()`` with no shape) of every direction at once, in
    C order (the directions' axis stays last)."""
    if len(shape) == 1 and isinstance(shape[0], tuple):
        shape = shape[0]
    if not shape:
        shape = (-1,)
    if type(tangent) is not _NDARRAY or not all(isinstance(n, (int, np.integer))
                                                 for n in shape):
        return map_columns(lambda t: np.reshape(t, shape), tangent)
    return tangent.reshape(tuple(shape) + tangent.shape[-1:])


def batch_transpose(tangent):
    """``np.transpose(t)`` (``t.T``) of every direction: the primal's axes reversed."""
    tangent = np.asarray(tangent)
    ndim = tangent.ndim - 1
    return tangent.transpose(tuple(range(ndim - 1, -1, -1)) + (ndim,))


def batch_roll(tangent, shift, axis=None):
    """``np.roll(t, shift, axis)`` of every direction: the primal's axes (negative ones
    counted from the primal's last); with no axis (a roll of the flattened array) one
    direction at a time."""
    if axis is None or type(tangent) is not _NDARRAY:
        return map_columns(lambda t: np.roll(t, shift, axis), tangent)
    ndim = tangent.ndim - 1   # (the primal's roll ran first: its axes are in range)
    if isinstance(axis, (tuple, list)):
        return np.roll(tangent, shift, tuple(a % ndim for a in axis))
    return np.roll(tangent, shift, axis % ndim)


def batch_outer(a, b, tangent_first):
    """``np.outer(a_dot, b)`` (``tangent_first``) or ``np.outer(a, b_dot)`` of every
    direction (``np.outer`` flattens its operands first)."""
    if tangent_first:
        a = np.asarray(a)
        return a.reshape(-1, 1, a.shape[-1]) * np.ravel(b)[None, :, None]
    b = np.asarray(b)
    return np.ravel(a)[:, None, None] * b.reshape(1, -1, b.shape[-1])


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


class UnbatchedCall(Exception):
    """A call through a value that has no batched form here (the Jacobian then takes
    one ``jvp`` per column)."""


# Methods of an array that only read it: run once per direction, they do what one run
# of the unbatched code does.
_PURE_ARRAY_METHODS = frozenset({
    "ravel", "reshape", "flatten", "transpose", "swapaxes", "squeeze", "sum", "mean",
    "prod", "cumsum", "cumprod", "copy", "dot", "conj", "conjugate", "trace", "diagonal",
    "max", "min", "clip", "round", "astype", "std", "var", "repeat", "take", "view"})


def batched_dynamic_jvp(fn, owner_dot, args, arg_dots):
    """``_sg.dynamic_jvp`` for a block of directions, one direction at a time: only for a
    method of an array that just reads it (anything else raises ``UnbatchedCall``)."""
    from srcgrad.runtime.dynamic import dynamic_jvp

    owner = getattr(fn, "__self__", None)
    if type(owner) is not _NDARRAY or getattr(fn, "__name__", None) not in _PURE_ARRAY_METHODS:
        raise UnbatchedCall(f"a call of {fn!r}")
    size = _size((owner_dot, arg_dots))
    if size is None:
        raise UnbatchedCall("no batched tangent")
    if fn.__name__ in ("ravel", "flatten", "reshape") and type(owner_dot) is _NDARRAY \
            and all(d is None for d in arg_dots) and _c_order_shape(fn.__name__, args):
        value = fn(*args)   # C order: the directions' axis stays last
        return value, owner_dot.reshape(value.shape + (size,))
    value, columns = None, []
    for b in range(size):
        value, tangent = dynamic_jvp(fn, _column(owner_dot, b), args, _column(arg_dots, b))
        columns.append(tangent)
    return value, _stack(columns)


def _c_order_shape(name, args):
    """Are ``args`` a C-order ``ravel()`` / ``flatten()`` / ``reshape(shape)``'s?"""
    if name != "reshape":
        return not args
    shape = args[0] if len(args) == 1 and isinstance(args[0], tuple) else args
    return bool(shape) and all(isinstance(n, (int, np.integer)) for n in shape)
