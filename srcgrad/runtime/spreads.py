"""A sum's cotangent spread back lazily: kept with the summed axes as length-one axes
until the elementwise expression that reads it broadcasts it (``optimize.spreads``).

``_sg.sum_adjoint(g, a, axis, keepdims)`` writes ``g`` into a new array shaped like
``a``; when the one reader multiplies it by arrays of that shape anyway, the copy is
memory traffic for nothing (a mixture model's ``(25, 1000, 10)``)::

    d_pow = _sg.expand_summed(d_sum, _pow, 2, False)        # (25, 1000, 1)
    dLx = _sg.spread_to(d_pow * 2 * Lx, _pow)               # (25, 1000, 10)
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.adjoints import sum_adjoint
from srcgrad.runtime.core import _NDARRAY, SavedShape

__all__ = ["expand_summed", "spread_to"]

_NUMBERS = (float, int, np.floating, np.integer)


def expand_summed(g, a, axis, keepdims):
    """``g``, the cotangent of ``np.sum(a, axis, keepdims=keepdims)``, with the summed
    axes put back as length-one axes, in the dtype ``sum_adjoint`` gives: it broadcasts
    to ``sum_adjoint(g, a, axis, keepdims)``. Never 0-d (NumPy 1 would read a 0-d array
    as a scalar in type promotion). Other arrays and templates: ``sum_adjoint`` itself."""
    kind = type(a)
    if not (kind is _NDARRAY or kind is SavedShape) or not a.shape or not (
            type(g) is _NDARRAY or isinstance(g, _NUMBERS)):
        return sum_adjoint(g, a, axis, keepdims)
    dtype = a.dtype if a.dtype.kind in "fc" else np.dtype(np.float64)
    g = np.asarray(g, dtype=dtype)
    ndim = len(a.shape)
    if axis is None:
        return g.reshape((1,) * ndim)
    if not keepdims:
        axes = axis if type(axis) is tuple else (axis,)
        g = np.expand_dims(g, tuple(sorted(ax % ndim for ax in axes)))
    return g


def spread_to(value, a):
    """``value`` (computed elementwise from an ``expand_summed`` array) broadcast as the
    fully spread array would have made it: to the common shape of its own and ``a``'s
    shape, copied (writable) when it had to grow. For a template other than a NumPy
    array or its saved shape, ``value`` as it is (``expand_summed`` spread it already;
    a dask array's shape may not even be known)."""
    if type(a) is not _NDARRAY and type(a) is not SavedShape:
        return value   # expand_summed gave sum_adjoint's own spread array
    shape = a.shape
    own = np.shape(value)
    if own == shape:
        return value
    full = np.broadcast_shapes(own, shape)
    if full == own:
        return value
    return np.array(np.broadcast_to(value, full))
