"""Adjoints of NumPy's shape functions (joins, stacks, tiles, diagonals): the pieces
of a cotangent that each operand became."""

from __future__ import annotations

import numpy as np

from srcgrad.runtime import foreign
from srcgrad.runtime.core import _NDARRAY, changed_in_place_error, unbroadcast
from srcgrad.runtime.namespaces import foreign_namespace


def inverse_axes(axes, ndim):
    if axes is None:
        return None
    return tuple(int(ax) for ax in np.argsort([ax % ndim for ax in axes]))


def as_operand(pieces, arrays):
    """The cotangent of the sequence operand ``arrays`` of a join from its items' pieces:
    an ndarray for an ndarray (``np.vstack(x)`` of an array ``x`` reads its rows; the
    gradient of an array is an array), else the list of pieces."""
    if type(arrays) is _NDARRAY:
        return np.reshape(np.asarray(pieces), arrays.shape)
    return pieces


def concatenate_adjoint(g, arrays, axis):
    """The pieces of ``g`` that each array of ``np.concatenate(arrays, axis)`` became (by
    slicing: ``np.split`` costs more than the work on small arrays)."""
    return as_operand(_concatenate_pieces(g, arrays, axis), arrays)


def _concatenate_pieces(g, arrays, axis):
    if axis is not None and type(g) is _NDARRAY and g.ndim:
        pieces = _slices_along(g, arrays, axis % g.ndim)
        if pieces is not None:
            return pieces
    if axis is None:
        g, axis = np.ravel(g), 0
        sizes = [np.size(a) for a in arrays]
    else:
        sizes = [np.shape(a)[axis] if np.ndim(a) else 1 for a in arrays]
    axis = axis % g.ndim
    index = [slice(None)] * g.ndim
    pieces, start = [], 0
    for size, a in zip(sizes, arrays):
        index[axis] = slice(start, start + size)
        piece = g[tuple(index)]
        pieces.append(piece if piece.shape == np.shape(a) else np.reshape(piece, np.shape(a)))
        start += size
    return pieces


def _slices_along(g, arrays, axis):
    """``concatenate_adjoint`` when every array is an ndarray of ``g``'s rank (the common
    case, read from the arrays' own attributes), else None."""
    ndim, lead = g.ndim, (slice(None),) * axis
    pieces, start = [], 0
    for a in arrays:
        if type(a) is not _NDARRAY or a.ndim != ndim:
            return None
        stop = start + a.shape[axis]
        piece = g[lead + (slice(start, stop),)]
        pieces.append(piece if piece.shape == a.shape else piece.reshape(a.shape))
        start = stop
    return pieces


def stack_adjoint(g, arrays, axis):
    """The cotangent of each array of ``np.stack(arrays, axis)``: ``g``'s slices along
    ``axis``, new arrays (one copy, then a view of it per array: a list cotangent is
    made an array once, not once per item)."""
    if type(g) is list:
        g = np.asarray(g)
    if np.shape(g)[axis] != len(arrays):   # the list grew or shrank after np.stack read it
        raise changed_in_place_error(arrays, np.shape(g)[axis])
    if (xp := foreign_namespace(g)) is not None:
        return foreign.xp_stack_adjoint(xp, g, arrays, axis)
    if type(g) is not _NDARRAY:   # another library's array (dask): its own take
        return [np.take(g, i, axis=axis) for i in range(len(arrays))]
    moved = (g if axis == 0 else np.moveaxis(g, axis, 0)).copy()
    return moved if type(arrays) is _NDARRAY else list(moved)


def hstack_adjoint(g, tup):
    axis = 0 if np.ndim(tup[0]) <= 1 else 1
    return as_operand([np.reshape(p, np.shape(a)) for p, a in
                       zip(concatenate_adjoint(g, [np.atleast_1d(a) for a in tup], axis), tup)],
                      tup)


def vstack_adjoint(g, tup):
    return as_operand([np.reshape(p, np.shape(a)) for p, a in
                       zip(concatenate_adjoint(g, [np.atleast_2d(a) for a in tup], 0), tup)],
                      tup)


def array_adjoint(g, obj):
    """Cotangent of ``np.array(obj)``: the same nesting as ``obj``."""
    if isinstance(obj, (list, tuple)):
        return [array_adjoint(g[i], item) for i, item in enumerate(obj)]
    return unbroadcast(g, obj) if type(obj) is _NDARRAY else (
        g[()] if isinstance(g, np.ndarray) and g.ndim == 0 else g)


def _scatter_target(a, g):
    """Zeros shaped like ``a`` to scatter ``g`` into, and ``g`` as written there: a real
    ``a``'s cotangent is real (the real part of a complex ``g``), a complex one complex."""
    g = g if np.iscomplexobj(a) else np.real(g)
    return np.zeros(np.shape(a), dtype=np.result_type(g, 0.0)), g


def trace_adjoint(g, a, offset, axis1, axis2):
    out, g = _scatter_target(a, g)
    rows_count, cols_count = np.shape(a)[axis1], np.shape(a)[axis2]   # (axes may be negative)
    idx = np.arange(max(0, min(rows_count, cols_count - offset) if offset >= 0
                        else min(rows_count + offset, cols_count)))
    rows, cols = (idx, idx + offset) if offset >= 0 else (idx - offset, idx)
    moved = np.moveaxis(out, (axis1, axis2), (-2, -1))
    moved[..., rows, cols] = np.expand_dims(g, -1) if np.ndim(g) else g
    return out


def diag_adjoint(g, v, k):
    if np.ndim(v) == 1:
        return np.diagonal(g, k).copy()
    out, g = _scatter_target(v, g)
    n = len(np.diagonal(out, k))
    idx = np.arange(n)
    rows, cols = (idx, idx + k) if k >= 0 else (idx - k, idx)
    out[rows, cols] = g
    return out


def tile_adjoint(g, a, reps):
    shape = np.shape(a)
    reps = (reps,) if np.ndim(reps) == 0 else tuple(reps)
    ndim = max(len(shape), len(reps))
    shape = (1,) * (ndim - len(shape)) + tuple(shape)
    reps = (1,) * (ndim - len(reps)) + reps
    split = []
    for r, s in zip(reps, shape):
        split += [r, s]
    return np.reshape(np.reshape(g, split).sum(axis=tuple(range(0, 2 * ndim, 2))), np.shape(a))


def repeat_adjoint(g, a, repeats, axis):
    """Each element of ``a`` gets the sum of the cotangents of its copies (none for a
    repeat count of 0: ``np.add.reduceat`` gave such an element the next one's first
    copy, or an IndexError at the end)."""
    g = np.asarray(g)
    if axis is None:
        flat = np.ravel(a)
        owner = np.repeat(np.arange(flat.size), repeats)
        summed = np.zeros(flat.shape, dtype=g.dtype)
        np.add.at(summed, owner, np.ravel(g))
        return np.reshape(summed, np.shape(a))
    count = np.shape(a)[axis]
    owner = np.repeat(np.arange(count), repeats)
    moved = np.moveaxis(g, axis, 0)
    summed = np.zeros((count,) + moved.shape[1:], dtype=g.dtype)
    np.add.at(summed, owner, moved)
    return np.moveaxis(summed, 0, axis)


