"""Adjoints and tangents of ``np.arange`` and ``x.tolist()`` (see ``rules.value_carrying``).

``np.arange(start, stop, step)`` is ``start + i * step``: its start's cotangent is the
sum of ``g``, its step's ``sum(g * i)``. Called with one argument (``np.arange(n)``) the
values are ``0, 1, ... n - 1`` whatever ``n`` is; an integer result carries nothing.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import as_array, dtype_of


def _carries(ans):
    return dtype_of(ans).kind in "fc"


def arange_start_adjoint(g, stop, ans):
    return np.sum(g) if stop is not None and _carries(ans) else 0.0


def arange_step_adjoint(g, ans):
    return np.sum(g * np.arange(np.size(ans))) if _carries(ans) else 0.0


def arange_start_tangent(start_dot, stop, ans):
    if stop is None or not _carries(ans):
        return np.zeros(np.shape(ans))
    return np.full(np.shape(ans), start_dot)


def arange_step_tangent(step_dot, ans):
    if not _carries(ans):
        return np.zeros(np.shape(ans))
    return step_dot * np.arange(np.size(ans))


def array_tolist(x):
    """``x.tolist()`` (the row ``x.tolist()`` calls are differentiated by): Python
    numbers, so another library's array (dask) is computed here, as ``x.tolist()`` would."""
    return np.asarray(x).tolist()


def tolist_adjoint(g, x):
    """The cotangent of ``x.tolist()`` (nested lists of numbers) as an array like ``x``."""
    return np.reshape(as_array(g, np.result_type(dtype_of(x), 0.0)), np.shape(x))
