"""Tangents (forward mode) of order statistics: the duals of ``quantile_adjoint`` in
``stats_adjoints``.

A quantile (``method='linear'``) is a fixed blend of the two order statistics around it,
so its tangent blends the tangents of the same two elements.
"""

from __future__ import annotations

import numpy as np


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

