"""Tangents (forward mode) of order statistics and interpolation: the duals of
``quantile_adjoint`` and ``interp_adjoint_*`` in ``stats_adjoints``.

A quantile (``method='linear'``) is a fixed blend of the two order statistics around it,
so its tangent blends the tangents of the same two elements; ``np.interp`` is linear on
the segment each ``x`` falls in.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import as_array
from srcgrad.runtime.stats_adjoints import _interp_segments, refuse_interp_period


def quantile_tangent(a_dot, a, q, axis, keepdims, method="linear"):
    """Tangent of ``np.quantile(a, q, axis, keepdims=keepdims)``: shape ``q.shape`` +
    the reduced shape, like the value."""
    if method != "linear":
        raise NotImplementedError(f"the derivative of quantile/percentile/median is "
                                  f"implemented for method='linear' only, not {method!r}")
    a = np.asanyarray(a)   # NumPy only: sorts and loops over the quantiles
    a_dot = np.broadcast_to(a_dot, a.shape)
    if axis is None:
        out = quantile_tangent(np.reshape(a_dot, (-1,)), np.reshape(a, (-1,)), q, 0, False)
        return np.reshape(out, np.shape(q) + (1,) * a.ndim) if keepdims else out
    if isinstance(axis, tuple):
        raise NotImplementedError("the derivative of quantile over a tuple of axes")
    axis = axis % a.ndim
    moved, moved_dot = np.moveaxis(a, axis, -1), np.moveaxis(a_dot, axis, -1)
    n = moved.shape[-1]
    order = np.argsort(moved, axis=-1, kind="stable")
    sorted_dot = np.take_along_axis(moved_dot, order, axis=-1)
    out = []
    for qi in np.ravel(q):
        position = qi * (n - 1)
        low = int(np.floor(position))
        high = min(low + 1, n - 1)
        frac = position - low
        item = sorted_dot[..., low] * (1 - frac) + sorted_dot[..., high] * frac
        out.append(np.expand_dims(item, axis) if keepdims else item)
    return np.reshape(np.stack(out), np.shape(q) + np.shape(out[0]))


def interp_tangent_x(x_dot, x, xp, fp, period=None):
    """The slope of the segment each ``x`` is in (0 outside ``xp``'s range)."""
    refuse_interp_period(period)
    index, inside, width, _ = _interp_segments(as_array(x), as_array(xp))
    fp = as_array(fp)
    return x_dot * inside * (fp[index + 1] - fp[index]) / width


def interp_tangent_fp(fp_dot, x, xp, left, right, period=None):
    """The blend of the two ``fp`` tangents around each ``x``; outside the range the end
    value's tangent (unless a constant ``left``/``right`` replaces it)."""
    refuse_interp_period(period)
    x, xp, fp_dot = as_array(x), as_array(xp), as_array(fp_dot)
    index, inside, _, t = _interp_segments(x, xp)
    out = np.where(inside, fp_dot[index] * (1 - t) + fp_dot[index + 1] * t, 0.0)
    if left is None:
        out = np.where(x < xp[0], fp_dot[0], out)
    if right is None:
        out = np.where(x > xp[-1], fp_dot[-1], out)
    return out


def interp_tangent_xp(xp_dot, x, xp, fp, period=None):
    """Moving the two knots around ``x``: ``slope * ((t - 1) dxp_i - t dxp_{i+1})``."""
    refuse_interp_period(period)
    x, xp, fp, xp_dot = as_array(x), as_array(xp), as_array(fp), as_array(xp_dot)
    index, inside, width, t = _interp_segments(x, xp)
    slope = (fp[index + 1] - fp[index]) / width
    return np.where(inside, slope * ((t - 1) * xp_dot[index] - t * xp_dot[index + 1]), 0.0)

