"""The helpers every generated function uses: shapes, zeros, accumulation, seeds."""

from __future__ import annotations

import numpy as np

_FLOAT = float
_NDARRAY = np.ndarray


def _float_dtype(a):
    dtype = np.asarray(a).dtype
    return dtype if dtype.kind in "fc" else np.float64


def stop_gradient(x):
    """Identity whose result carries no derivative."""
    return x


# -- shapes and zeros ------------------------------------------------------------------
def unbroadcast(g, x):
    """Sum ``g`` over the axes that broadcasting added to or stretched in ``x``."""
    if type(x) is _NDARRAY:
        if type(g) is _NDARRAY and g.shape == x.shape:
            return g
        shape = x.shape
    elif type(g) is not _NDARRAY:
        return g
    else:
        shape = np.shape(x)
    g = np.asarray(g)
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and g.shape[axis] != 1:
            g = g.sum(axis=axis, keepdims=True)
    if type(x) is not _NDARRAY:
        return g[()] if g.ndim == 0 else g
    return g


def zeros_like(x):
    """A zero cotangent shaped like ``x`` (floats stay floats, ints become floats)."""
    if type(x) is _NDARRAY:
        return np.zeros(x.shape, dtype=x.dtype if x.dtype.kind in "fc" else np.float64)
    if isinstance(x, (list, tuple)):
        return [zeros_like(v) for v in x]
    if isinstance(x, np.generic):
        return x.dtype.type(0) if x.dtype.kind in "fc" else 0.0
    return 0.0


def add_at(dx, index, g):
    """``dx[index] += g``, in place, correct for repeated fancy indices; returns ``dx``."""
    if type(dx) is list:
        if isinstance(index, slice):
            for i, gi in zip(range(*index.indices(len(dx))), g):
                dx[i] = dx[i] + gi
        else:
            dx[index] = dx[index] + g
        return dx
    if _is_basic_index(index):
        dx[index] += g
    else:
        np.add.at(dx, index, g)
    return dx


def _is_basic_index(index):
    if isinstance(index, tuple):
        return all(_is_basic_index(i) for i in index)
    return index is None or index is Ellipsis or isinstance(index, (int, np.integer, slice))


def item_adjoint(dx, index, value):
    """The cotangent of ``value`` in ``x[index] = value``: a copy of ``dx[index]``."""
    g = dx[index]
    g = g.copy() if type(g) is _NDARRAY else g
    return unbroadcast(g, value)


def snapshot(value):
    """A copy of ``value`` that later in-place writes cannot change."""
    if type(value) is _NDARRAY:
        return value.copy()
    return list(value) if type(value) is list else value


def seed(ans):
    """The cotangent 1 for ``grad``'s scalar output (error for anything else)."""
    if type(ans) is _FLOAT:
        return 1.0
    if np.ndim(ans) != 0 or isinstance(ans, (list, tuple, dict)):
        raise TypeError(
            f"grad requires a scalar output; the function returned shape {np.shape(ans)}. "
            "Use sg.vjp or sg.jacobian for non-scalar outputs.")
    kind = np.asarray(ans).dtype.kind
    if kind not in "fc":
        raise TypeError(f"grad requires a float output; the function returned {type(ans).__name__}")
    return np.ones_like(ans)[()] if isinstance(ans, (np.ndarray, np.generic)) else 1.0


def sign(x):
    return np.sign(x) if type(x) is _NDARRAY else (1.0 if x > 0 else (-1.0 if x < 0 else 0.0))


# -- sequences ---------------------------------------------------------------------------
def sum_of_sequence_adjoint(g, iterable):
    if type(iterable) is _NDARRAY:
        return np.broadcast_to(g, iterable.shape).copy() if iterable.ndim else g
    return [unbroadcast(g, item) for item in iterable]


def sequence_item(dseq, index, seq):
    """The cotangent of ``seq[index]`` stored in a sequence cotangent (0 if absent)."""
    if dseq is None:
        return zeros_like(seq[index])
    return dseq[index]


def finish(adjoint, primal):
    """The final cotangent of an input: zeros when the adjoint is symbolically zero, and
    a float for a float input."""
    if adjoint is None:
        return zeros_like(primal)
    if type(primal) is _FLOAT and type(adjoint) is not _FLOAT:
        return _FLOAT(adjoint)
    if type(primal) is _NDARRAY and type(adjoint) is not _NDARRAY:
        return np.full(primal.shape, adjoint, dtype=_float_dtype(primal))
    if type(primal) is _NDARRAY and adjoint.dtype != primal.dtype and primal.dtype.kind == "f":
        return adjoint.astype(primal.dtype)
    return adjoint
