"""Adjoints of statistics and integrals: var/std, cumulative products, NaN-aware
reductions, order statistics (median, percentile), ``diff``, ``trapezoid``, ``interp``."""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.adjoints import _expand
from srcgrad.runtime.core import as_array


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return tuple(ax % ndim for ax in axes)


def _count(a, axis):
    return int(np.prod([np.shape(a)[ax] for ax in _axes(axis, np.ndim(a))]))


def var_adjoint(g, a, axis, ddof, keepdims):
    centered = a - np.mean(a, axis=axis, keepdims=True)
    return 2 * _expand(g, a, axis, keepdims) * np.conj(centered) / (_count(a, axis) - ddof)


def var_tangent(a_dot, a, axis, ddof, keepdims):
    centered = np.conj(a - np.mean(a, axis=axis, keepdims=True))
    return 2 * np.sum(np.real(a_dot * centered), axis=axis, keepdims=keepdims) / (
        _count(a, axis) - ddof)


def std_adjoint(g, a, ans, axis, ddof, keepdims):
    """Where the standard deviation is 0 (one element, or all equal) the cotangent is 0,
    as ``np.linalg.norm``'s is at 0: ``centered`` is exactly 0 there, and is divided by 1
    in place of 0. One element's std is the constant 0: its derivative is 0, not nan."""
    centered = a - np.mean(a, axis=axis, keepdims=True)
    scale = _expand(g / np.where(ans == 0, 1.0, ans), a, axis, keepdims)
    return scale * np.conj(centered) / (_count(a, axis) - ddof)


def cumprod_adjoint(g, a, ans, axis):
    """Row by row: ``d a_i = sum_{j >= i} g_j prod_{k <= j, k != i} a_k``. NumPy only:
    it tests ``a`` for zeros and loops over rows holding one."""
    a = np.asanyarray(a)
    shape, flat_axis = np.shape(a), axis is None
    if flat_axis:
        a, g, ans, axis = np.ravel(a), np.ravel(g), np.ravel(ans), 0
    if np.all(a != 0):
        out = np.flip(np.cumsum(np.flip(g * ans, axis), axis), axis) / a
    else:
        moved_a, moved_g = np.moveaxis(a, axis, -1), np.moveaxis(g, axis, -1)
        moved = np.zeros(moved_a.shape, dtype=np.result_type(a, g, 0.0))
        for index in np.ndindex(moved_a.shape[:-1]):
            moved[index] = _cumprod_row_adjoint(moved_g[index], moved_a[index])
        out = np.moveaxis(moved, -1, axis)
    return np.reshape(out, shape)   # shaped like ``a`` (flattened only for ``axis=None``)


def _cumprod_row_adjoint(g, a):
    n = len(a)
    out = np.zeros(n, dtype=np.result_type(a, g, 0.0))
    for i in range(n):
        others = a.copy()
        others[i] = 1.0
        out[i] = np.sum(g[i:] * np.cumprod(others)[i:])
    return out


def cumprod_tangent(a_dot, a, ans, axis):
    """``d ans_j = sum_{i <= j} a_dot_i prod_{k <= j, k != i} a_k`` (no division by a
    zero: rows holding one are summed term by term)."""
    if axis is None:
        a, a_dot, ans, axis = np.ravel(a), np.ravel(a_dot), np.ravel(ans), 0
    a, a_dot = np.asanyarray(a), np.broadcast_to(a_dot, np.shape(a))   # NumPy only
    if np.all(a != 0):
        return ans * np.cumsum(a_dot / a, axis=axis)
    moved_a, moved_dot = np.moveaxis(a, axis, -1), np.moveaxis(a_dot, axis, -1)
    out = np.zeros(moved_a.shape, dtype=np.result_type(a, a_dot, 0.0))
    for index in np.ndindex(moved_a.shape[:-1]):
        row, row_dot = moved_a[index], moved_dot[index]
        for i in range(len(row)):
            others = row.copy()
            others[i] = 1.0
            out[index][i:] += row_dot[i] * np.cumprod(others)[i:]
    return np.moveaxis(out, -1, axis)


def nansum_adjoint(g, a, axis, keepdims):
    return _expand(g, a, axis, keepdims) * ~np.isnan(a)


def nanmean_adjoint(g, a, axis, keepdims):
    present = ~np.isnan(a)
    count = np.sum(present, axis=axis, keepdims=True)
    return _expand(g, a, axis, keepdims) * present / count


# -- order statistics --------------------------------------------------------------------
def quantile_adjoint(g, a, q, axis, keepdims, method="linear"):
    """Adjoint of ``np.quantile`` (``method='linear'``): each quantile is a weighted
    average of the (at most two) order statistics around it."""
    if method != "linear":
        raise NotImplementedError(f"the derivative of quantile/percentile/median is "
                                  f"implemented for method='linear' only, not {method!r}")
    a = np.asanyarray(a)   # NumPy only: sorts and loops over the quantiles
    if axis is None:
        flat = np.reshape(a, (-1,))
        g = np.reshape(g, np.shape(q))
        return np.reshape(quantile_adjoint(g, flat, q, 0, False), a.shape)
    if isinstance(axis, tuple):
        raise NotImplementedError("the derivative of quantile over a tuple of axes")
    axis = axis % a.ndim
    if keepdims:
        g = np.squeeze(g, axis=np.ndim(q) + axis)
    moved = np.moveaxis(a, axis, -1)
    n = moved.shape[-1]
    order = np.argsort(moved, axis=-1, kind="stable")
    grad_sorted = np.zeros(moved.shape, dtype=np.result_type(a, g, 0.0))
    for qi, gi in zip(np.ravel(q), np.reshape(g, (-1,) + moved.shape[:-1])):
        position = qi * (n - 1)
        low = int(np.floor(position))
        high = min(low + 1, n - 1)
        frac = position - low
        grad_sorted[..., low] += gi * (1 - frac)
        grad_sorted[..., high] += gi * frac
    out = np.zeros_like(grad_sorted)
    np.put_along_axis(out, order, grad_sorted, axis=-1)
    return np.moveaxis(out, -1, axis)


# -- differences and integrals -----------------------------------------------------------
def diff_adjoint(g, a, n, axis, prepend=None, append=None):
    """Transpose of ``np.diff``: ``n`` times the transpose of one difference, then drop
    what ``prepend``/``append`` added."""
    for _ in range(n):
        ndim = np.ndim(g)
        pad = [(0, 0)] * ndim
        pad[axis % ndim] = (1, 1)
        padded = np.pad(g, pad)
        g = -np.diff(padded, axis=axis)
    before = 0 if prepend is None else (np.shape(prepend)[axis] if np.ndim(prepend) else 1)
    size = np.shape(a)[axis]
    return np.take(g, np.arange(before, before + size), axis=axis)


def trapezoid_adjoint_y(g, y, x, dx, axis):
    y = as_array(y)
    n = y.shape[axis]
    widths = _widths(x, dx, n, axis, y.ndim)
    pad = [(0, 0)] * widths.ndim
    pad[axis % widths.ndim] = (1, 0)
    left = np.pad(widths, pad)
    pad[axis % widths.ndim] = (0, 1)
    right = np.pad(widths, pad)
    return np.expand_dims(g, axis) * (left + right) / 2


def _widths(x, dx, n, axis, ndim):
    if x is None:
        return np.full([n - 1 if ax == axis % ndim else 1 for ax in range(ndim)], dx,
                       dtype=np.result_type(dx, 0.0))
    x = as_array(x)
    d = np.diff(x, axis=axis if x.ndim > 1 else -1)
    if x.ndim == 1:
        shape = [1] * ndim
        shape[axis] = n - 1
        d = np.reshape(d, shape)
    return d


def trapezoid_adjoint_x(g, y, x, axis):
    """d ans / d x_i = (y_{i-1} + y_i)/2 - (y_i + y_{i+1})/2 (one-sided at the ends)."""
    y = as_array(y)
    means = (np.take(y, np.arange(1, y.shape[axis]), axis) +
             np.take(y, np.arange(0, y.shape[axis] - 1), axis)) / 2
    pad = [(0, 0)] * y.ndim
    pad[axis % y.ndim] = (1, 0)
    upper = np.pad(means, pad)
    pad[axis % y.ndim] = (0, 1)
    lower = np.pad(means, pad)
    full = np.expand_dims(g, axis) * (upper - lower)
    if np.ndim(x) == 1 and y.ndim > 1:
        full = np.sum(np.moveaxis(full, axis, -1), axis=tuple(range(y.ndim - 1)))
    return full


def trapezoid_adjoint_dx(g, y, axis):
    y = as_array(y)
    inner = np.sum(y, axis=axis) - (np.take(y, 0, axis) + np.take(y, -1, axis)) / 2
    return np.sum(g * inner)


# np.interp's rows are written with np.take of ``xp`` and ``fp`` at the segment each ``x``
# is in, and these masks and indices (piecewise constant: no derivative).
def interp_index(x, xp, period=None):
    """The segment ``[xp[i], xp[i + 1]]`` each ``x`` is in (the first or last outside)."""
    refuse_interp_period(period)
    xp = as_array(xp)
    return np.clip(np.searchsorted(xp, as_array(x), side="right") - 1, 0, len(xp) - 2)


def interp_inside(x, xp):
    """1 where ``x`` is within ``xp``'s range, else 0."""
    x, xp = as_array(x), as_array(xp)
    return ((x >= xp[0]) & (x <= xp[-1])).astype(float)


def interp_outside(x, xp, end, side):
    """1 where ``x`` is beyond ``xp``'s first (``side`` 0) or last (``side`` -1) point
    and takes the end value of ``fp`` there (``end``, ``left`` or ``right``, is None)."""
    x, xp = as_array(x), as_array(xp)
    beyond = x < xp[0] if side == 0 else x > xp[-1]
    return beyond.astype(float) * (end is None)


def refuse_interp_period(period):
    """``np.interp(..., period=p)`` wraps ``x`` and ``xp``: no rule of either mode models
    that, so it is an error rather than a wrong derivative."""
    if period is not None:
        raise NotImplementedError("the derivative of np.interp with period=...")
