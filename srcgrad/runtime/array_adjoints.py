"""Adjoints of array rearrangements: splits, stacks, padding, diagonals, gathers, sorts."""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import unbroadcast, zeros_like
from srcgrad.runtime.shape_adjoints import as_operand


def _float_zeros(shape, *like):
    return np.zeros(shape, dtype=np.result_type(*like, 0.0))


def split_adjoint(g, ary, axis):
    """Transpose of the ``split`` family: the pieces' cotangents, concatenated."""
    if np.ndim(ary) == 1:
        axis = 0
    pieces = [zeros_like(p) if p is None else p for p in g]
    return np.concatenate(pieces, axis=axis)


def hsplit_adjoint(g, ary):
    return split_adjoint(g, ary, 1)


def dstack_adjoint(g, tup):
    parts = np.split(g, np.cumsum([np.shape(np.atleast_3d(t))[2] for t in tup])[:-1], axis=2)
    return as_operand([np.reshape(p, np.shape(t)) for p, t in zip(parts, tup)], tup)


def column_stack_adjoint(g, tup):
    sizes = [1 if np.ndim(t) < 2 else np.shape(t)[1] for t in tup]
    parts = np.split(g, np.cumsum(sizes)[:-1], axis=1)
    return as_operand([np.reshape(p, np.shape(t)) for p, t in zip(parts, tup)], tup)


def append_adjoint(g, arr, values, axis):
    """Cotangents of ``(arr, values)`` in ``np.append(arr, values, axis)``."""
    if axis is None:
        g = np.ravel(g)
        size = np.size(arr)
        return np.reshape(g[:size], np.shape(arr)), np.reshape(g[size:], np.shape(values))
    size = np.shape(arr)[axis]
    first, second = np.split(g, [size], axis=axis)
    return first, second


def rot90_adjoint(g, k, axes):
    return np.rot90(g, -k, (0, 1) if axes is None else axes)


def rollaxis_adjoint(g, a, axis, start):
    ndim = np.ndim(a)
    axis, start = axis % ndim, start % (ndim + 1)
    order = list(range(ndim))
    order.insert(start if start <= axis else start - 1, order.pop(axis))
    return np.transpose(g, [int(ax) for ax in np.argsort(order)])


def diagonal_adjoint(g, a, offset, axis1, axis2):
    """Scatter ``g`` back onto the ``offset`` diagonal of the ``(axis1, axis2)`` plane."""
    out = _float_zeros(np.shape(a), a, g)
    moved = np.moveaxis(out, (axis1, axis2), (-2, -1))
    idx = np.arange(np.shape(g)[-1])
    r, c = (idx, idx + offset) if offset >= 0 else (idx - offset, idx)
    moved[..., r, c] = g
    return out


def pad_adjoint(g, array, pad_width, mode):
    """Transpose of ``np.pad`` in constant mode: the un-padded window of ``g``."""
    if mode != "constant":
        raise NotImplementedError(
            f"the derivative of np.pad is implemented for mode='constant' only, not {mode!r}")
    ndim = np.ndim(array)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=int), (ndim, 2))
    window = tuple(slice(before, before + size)
                   for (before, _), size in zip(widths, np.shape(array)))
    return g[window]


def take_adjoint(g, a, indices, axis):
    out = _float_zeros(np.shape(a), a, g)
    if axis is None:
        np.add.at(out.reshape(-1), indices, g)
        return out
    index = (slice(None),) * (axis % out.ndim) + (indices,)
    np.add.at(out, index, g)
    return out


def take_along_axis_adjoint(g, arr, indices, axis):
    out = _float_zeros(np.shape(arr), arr, g)
    if axis is None:
        np.add.at(out.reshape(-1), np.ravel(indices), np.ravel(g))
        return out
    axis = axis % out.ndim
    grids = np.ogrid[tuple(slice(n) for n in np.shape(indices))]
    index = tuple(indices if ax == axis else grid for ax, grid in enumerate(grids))
    np.add.at(out, index, g)
    return out


def sort_adjoint(g, a, axis):
    """Send each sorted position's cotangent back to where its element came from."""
    if axis is None:
        return np.reshape(sort_adjoint(g, np.ravel(a), -1), np.shape(a))
    order = np.argsort(a, axis=axis, kind="stable")
    out = _float_zeros(np.shape(a), a, g)
    np.put_along_axis(out, order, g, axis=axis)
    return out


def sort_tangent(a_dot, a, axis):
    if axis is None:
        a, a_dot, axis = np.ravel(a), np.ravel(a_dot), -1
    return np.take_along_axis(a_dot, np.argsort(a, axis=axis, kind="stable"), axis=axis)


def partition_adjoint(g, a, kth, axis):
    if axis is None:
        return np.reshape(partition_adjoint(g, np.ravel(a), kth, -1), np.shape(a))
    order = np.argpartition(a, kth, axis=axis)
    out = _float_zeros(np.shape(a), a, g)
    np.put_along_axis(out, order, g, axis=axis)
    return out


def linspace_weights(start, stop, num, endpoint, axis):
    """``(1 - t, t)`` with ``ans = start * (1 - t) + stop * t``, shaped to broadcast."""
    div = (num - 1) if endpoint else num
    t = np.arange(num) / div if div > 0 else np.zeros(num)
    shape = np.broadcast_shapes(np.shape(start), np.shape(stop))
    ndim = len(shape) + 1
    view = [1] * ndim
    view[axis % ndim] = num
    t = np.reshape(t, view)
    return 1 - t, t


def linspace_adjoint(g, start, stop, num, endpoint, axis, which):
    weights = linspace_weights(start, stop, num, endpoint, axis)[which]
    target = start if which == 0 else stop
    return unbroadcast(np.sum(g * weights, axis=axis), target)


def linspace_tangent(start_dot, stop_dot, start, stop, num, endpoint, axis):
    """``np.linspace`` is linear in ``(start, stop)``: the same call on the tangents,
    shaped like the result."""
    shape = np.broadcast_shapes(np.shape(start), np.shape(stop))
    start_dot = np.broadcast_to(start_dot, shape)
    stop_dot = np.broadcast_to(stop_dot, shape)
    return np.linspace(start_dot, stop_dot, num, endpoint, axis=axis)


def gradient_adjoint(g, f, spacing, axis, edge_order):
    """Transpose of ``np.gradient(f, spacing, axis=axis, edge_order=edge_order)`` in
    ``f``: along each axis the differences are a banded matrix ``D`` (read from NumPy as
    ``np.gradient`` of the identity), and ``f`` gets ``D.T`` applied to that axis'
    cotangent. ``g`` is one array (one axis) or a list (several; None: unused)."""
    ndim = np.ndim(f)
    axes = tuple(range(ndim)) if axis is None else (
        (axis,) if np.ndim(axis) == 0 else tuple(axis))
    axes = tuple(int(ax) % ndim for ax in axes)
    parts = [g] if len(axes) == 1 else list(g)
    spacings = _axis_spacings(spacing, len(axes))
    out = np.zeros(np.shape(f), dtype=np.result_type(f, *[p for p in parts if p is not None],
                                                     0.0))
    for ax, part, step in zip(axes, parts, spacings):
        if part is None:
            continue
        n = np.shape(f)[ax]
        band = np.gradient(np.eye(n), *step, axis=0, edge_order=edge_order)
        moved = np.tensordot(band.T, np.moveaxis(np.asarray(part), ax, 0), axes=1)
        out += np.moveaxis(moved, 0, ax)
    return out


def _axis_spacings(spacing, count):
    """``np.gradient``'s spacing argument per axis, as the extra arguments of a call
    along one axis: ``()`` (unit), ``(h,)`` or ``(coordinates,)``."""
    if spacing is None:
        return [()] * count
    if np.ndim(spacing) == 0 or count == 1:
        return [(spacing,)] * count
    return [(step,) for step in spacing]


def select_adjoint(g, condlist, choicelist, which):
    """The cotangent of choice ``which`` (an index; ``len(condlist)``: the default) of
    ``np.select(condlist, choicelist, default)``: ``g`` where that choice was taken."""
    picked = np.select(condlist, list(range(len(condlist))), len(condlist))
    return np.where(picked == which, g, 0.0)


def select_choices_adjoint(g, condlist, choicelist):
    return [unbroadcast(select_adjoint(g, condlist, choicelist, k), choice)
            for k, choice in enumerate(choicelist)]


def select_default_tangent(default_dot, condlist):
    """The tangent of ``np.select`` through its default: ``default_dot`` where no
    condition holds."""
    return np.select(condlist, [0.0] * len(condlist), default_dot)


def select_choices_tangent(choices_dot, condlist):
    """The tangent of ``np.select`` through its choices (a zero for an unused one)."""
    return np.select(condlist, [0.0 if c is None else c for c in choices_dot], 0.0)


def gradient_tangent(f_dot, f, spacing, axis, edge_order):
    """``np.gradient`` of the tangent, with the same spacing (linear in ``f``)."""
    ndim = np.ndim(f)
    count = ndim if axis is None else (1 if np.ndim(axis) == 0 else len(axis))
    steps = [s for step in _axis_spacings(spacing, count) for s in step][
        :1 if spacing is None or np.ndim(spacing) == 0 else count]
    if spacing is None:
        steps = []
    return np.gradient(np.broadcast_to(f_dot, np.shape(f)), *steps, axis=axis,
                       edge_order=edge_order)
