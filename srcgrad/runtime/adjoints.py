"""Helpers that rule-table rows call: partial derivatives and adjoints of reductions,
products and shape functions."""

from __future__ import annotations

import math

import numpy as np

from srcgrad.runtime import foreign
from srcgrad.runtime.core import (
    _NDARRAY,
    SavedShape,
    _float_dtype,
    as_array,
    is_duck_array,
    sign,
    unbroadcast,
)
from srcgrad.runtime.namespaces import foreign_namespace

_FLOAT64 = np.dtype(np.float64)


# -- partials used by rule rows ----------------------------------------------------------
def balanced_eq(x, ans, other):
    """Weight of ``x`` in max/min: 1 where it won, 1/2 on ties."""
    if type(ans) is not _NDARRAY and (xp := foreign_namespace(x, ans, other)) is not None:
        return foreign.xp_balanced_eq(xp, x, ans, other)
    return (x == ans) / (1.0 + (other == ans))


def clip_mask(a, a_min, a_max, low=None, high=None):
    """Where ``np.clip`` passed ``a`` through (bounds as ``a_min``/``a_max`` or, in NumPy
    2, ``min``/``max``)."""
    a_min = low if a_min is None else a_min
    a_max = high if a_max is None else a_max
    mask = np.ones_like(a, dtype=float)
    if a_min is not None:
        mask = mask * (a >= a_min)
    if a_max is not None:
        mask = mask * (a <= a_max)
    return mask


def clip_bound_partial(a, a_min, a_max, low, high, upper):
    """Where ``np.clip``'s value is its lower bound (``upper=False``) or its upper bound:
    ``clip = minimum(maximum(a, a_min), a_max)``; ties go to ``a`` (as in ``clip_mask``)."""
    a_min = low if a_min is None else a_min
    a_max = high if a_max is None else a_max
    floor = a if a_min is None else np.maximum(a, a_min)
    if upper:
        return as_array(floor > a_max, float)
    mask = as_array(a < a_min, float)
    return mask if a_max is None else mask * (a_min <= a_max)


def power_at_zero(x, y):
    """1 where the base ``x`` and the exponent ``y`` of a power are both 0, else 0: added
    to the exponent of the base's partial ``y * x ** (y - 1)``, it makes ``x ** 0``'s
    partial 0 at ``x = 0`` (not ``0 * inf``) and changes nothing elsewhere (locally
    constant: it has no derivative)."""
    return (y == 0) * (x == 0)


def power_exponent_partial(x, ans):
    """d(x**y)/dy = log(x) * x**y, taken as 0 where x == 0. A complex power (complex
    ``x`` or a complex result) takes the principal log, which NumPy's power uses; a real
    one has no derivative in ``y`` where ``x < 0`` (taken as 0 there too)."""
    if (xp := foreign_namespace(ans, x)) is not None:
        return foreign.xp_power_exponent_partial(xp, x, ans)
    if np.iscomplexobj(x) or np.iscomplexobj(ans):
        x = as_array(x, complex)
        safe = np.where(x != 0, x, 1.0)
        return np.where(x != 0, np.log(safe), 0.0) * ans
    x = as_array(x, float)
    safe = np.where(x > 0, x, 1.0)
    return np.where(x > 0, np.log(safe), 0.0) * ans


def abs_partial(x):
    """d|x|/dx as a cotangent factor: sign(x) for reals, conj(x)/|x| for complex (0 at 0)."""
    if not np.iscomplexobj(x):
        return sign(x) if isinstance(x, (int, float)) else np.sign(x)
    magnitude = np.abs(x)
    return np.conj(x) / np.where(magnitude == 0, 1, magnitude)


def imag_adjoint(g, val):
    return -1j * g if np.iscomplexobj(val) else np.zeros_like(g)


def angle_tangent(z_dot, z):
    """``d angle(z) = Im(conj(z) z_dot) / |z|^2``; zero for real ``z``."""
    if not np.iscomplexobj(z):
        return np.zeros(np.shape(z), dtype=float)
    magnitude2 = np.abs(z) ** 2
    return np.imag(np.conj(z) * z_dot) / np.where(magnitude2 == 0, 1, magnitude2)


def angle_adjoint(g, z):
    if not np.iscomplexobj(z):
        return np.zeros_like(g, dtype=float)
    magnitude2 = np.abs(z) ** 2
    return g * np.conj(z * 1j) / np.where(magnitude2 == 0, 1, magnitude2)


def sinc_partial(x, ans):
    x = as_array(x, complex if np.iscomplexobj(x) else float)
    safe = np.where(x == 0, 1.0, x)
    return np.where(x == 0, 0.0, (np.cos(np.pi * safe) - ans) / safe)


def scalar_digamma(x):
    """The digamma function psi(x) = d log Gamma(x) / dx of a real scalar, without SciPy:
    reflection below 1/2, the recurrence up to 6, then the asymptotic series (error <
    1e-13)."""
    x = float(x)
    if x < 0.5:
        return scalar_digamma(1.0 - x) - math.pi / math.tan(math.pi * x)
    result = 0.0
    while x < 6.0:
        result -= 1.0 / x
        x += 1.0
    f = 1.0 / (x * x)
    series = f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))))
    return result + math.log(x) - 0.5 / x - series


# -- reductions --------------------------------------------------------------------------
def _expand(g, a, axis, keepdims):
    shape = np.shape(a)
    if axis is None:
        return np.broadcast_to(np.reshape(g, (1,) * len(shape)), shape) if shape else g
    if not keepdims:
        axes = axis if isinstance(axis, tuple) else (axis,)
        axes = sorted(ax % len(shape) for ax in axes)
        for ax in axes:
            g = np.expand_dims(g, ax)
    return np.broadcast_to(g, shape)


def sum_adjoint(g, a, axis, keepdims):
    """``g`` spread back over the axes ``np.sum`` reduced: a new array shaped like ``a``."""
    if type(a) is _NDARRAY or type(a) is SavedShape:
        shape, dtype = a.shape, a.dtype
        if dtype.kind not in "fc":
            dtype = np.dtype(np.float64)
    elif (xp := foreign_namespace(a, g)) is not None:
        return foreign.xp_sum_adjoint(xp, g, a, axis, keepdims)
    elif np.ndim(a) == 0:
        return g
    elif not isinstance(a, (list, tuple)):   # an array-like (dask): NumPy dispatch, lazily
        return _spread_like(g, a, axis, keepdims)
    else:
        shape, dtype = np.shape(a), _float_dtype(a)
    return _spread(g, shape, axis, keepdims, dtype)


def _spread_like(g, a, axis, keepdims):
    """``sum_adjoint`` for an array-like ``a`` other than an ndarray: ``g`` broadcast to
    ``a``'s shape by functions that dispatch on ``a`` (``np.zeros_like``)."""
    if axis is not None and not keepdims:
        axes = axis if isinstance(axis, tuple) else (axis,)
        g = np.expand_dims(g, tuple(sorted(ax % np.ndim(a) for ax in axes)))
    return np.zeros_like(a, dtype=_float_dtype(a)) + g


def _spread(g, shape, axis, keepdims, dtype):
    """A new ``dtype`` array of ``shape`` holding ``g`` repeated along ``axis`` (where a
    reduction removed or, with ``keepdims``, shrank it). Filling and ``np.repeat`` copy
    whole runs; a copy of a broadcast view walks a short inner axis element by element."""
    if type(g) is not _NDARRAY and is_duck_array(g):   # a dask cotangent stays lazy
        return _broadcast_lazily(g, shape, axis, keepdims).astype(dtype)
    if axis is None:
        return np.full(shape, g, dtype=dtype)
    ndim = len(shape)
    axes = sorted({ax % ndim for ax in (axis if type(axis) is tuple else (axis,))})
    g = as_array(g)
    if g.dtype != dtype:
        g = g.astype(dtype)
    if not keepdims:
        g = np.expand_dims(g, tuple(axes))
    spread = False
    for ax in axes:
        if shape[ax] != 1 and g.shape[ax] == 1:
            g = np.repeat(g, shape[ax], axis=ax)
            spread = True
    if not spread or g.shape != tuple(shape):
        g = np.array(np.broadcast_to(g, shape))
    return g


def _broadcast_lazily(g, shape, axis, keepdims):
    if axis is not None and not keepdims:
        axes = axis if isinstance(axis, tuple) else (axis,)
        g = np.expand_dims(g, tuple(sorted(ax % len(shape) for ax in axes)))
    return np.broadcast_to(g, shape)


def mean_adjoint(g, a, axis, keepdims):
    kind = type(a)
    if axis is None and (kind is _NDARRAY or kind is SavedShape) and a.dtype is _FLOAT64 \
            and (type(g) is float or type(g) is np.float64) and a.shape:
        count = math.prod(a.shape)
        if count:   # each item g / count, the rounding of dividing a filled array by count
            return np.full(a.shape, g / count)
    shape = np.shape(a)   # (a SavedShape too)
    count = math.prod(shape) if axis is None else math.prod(   # a Python int keeps float32
        shape[ax] for ax in (axis if isinstance(axis, tuple) else (axis,)))
    out = sum_adjoint(g, a, axis, keepdims)
    if out is g or type(out) is not _NDARRAY:
        return out / count
    out /= count   # a new array: divided in place, with the same rounding as out / count
    return out


def prod_adjoint(g, a, ans, axis, keepdims):
    if (xp := foreign_namespace(a)) is not None:
        return foreign.xp_prod_adjoint(xp, g, a, ans, axis, keepdims)
    a = as_array(a)
    if is_duck_array(a):   # a dask array: no test for zeros (it would compute a)
        return _expand(g, a, axis, keepdims) * _product_of_others(a, axis)
    g_full = _expand(g, a, axis, keepdims)
    ans_full = _expand(ans, a, axis, keepdims)
    if np.all(a != 0):
        return g_full * ans_full / a
    # With zeros: product of the others, computed directly along the axis.
    axes = tuple(range(a.ndim)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    out = np.empty_like(a, dtype=np.result_type(a, 0.0))
    for index in np.ndindex(a.shape):
        others = a.copy()
        others[index] = 1.0
        out[index] = np.prod(others, axis=axes, keepdims=True)[
            tuple(0 if ax in [x % a.ndim for x in axes] else i for ax, i in enumerate(index))]
    return g_full * out


def _product_of_others(a, axis):
    """Each element's product of the others along the reduced axes, as products of the
    elements before and after it (no division: zeros are fine, nothing is tested)."""
    ndim = np.ndim(a)
    reduced = sorted(_reduced_axes(axis, ndim))
    kept = [ax for ax in range(ndim) if ax not in reduced]
    moved = np.transpose(a, kept + reduced)
    rows = np.reshape(moved, tuple(np.shape(moved)[:len(kept)]) + (-1,))
    ones = np.ones_like(rows[..., :1])
    before = np.cumprod(np.concatenate([ones, rows[..., :-1]], axis=-1), axis=-1)
    after = np.flip(np.cumprod(np.concatenate([ones, np.flip(rows, -1)[..., :-1]], axis=-1),
                               axis=-1), -1)
    others = np.reshape(before * after, np.shape(moved))
    return np.transpose(others, [int(i) for i in np.argsort(kept + reduced)])


def prod_adjoint_tangent(g, a_dot, a, axis, keepdims):
    """The tangent of ``prod_adjoint(g, a, ...)`` along ``a_dot``: each output is ``g``
    times the product of the others, ``prod_{k != i} a_k``, whose derivative is
    ``sum_{j != i} a_dot_j prod_{k != i, j} a_k`` (its ``ans`` argument is that same
    product, so it carries no derivative of its own). NumPy only: it tests ``a`` for
    zeros and loops over its elements (another library's array: none may be zero)."""
    xp = foreign_namespace(a)
    if xp is not None:
        return foreign.xp_prod_adjoint_tangent(xp, g, a_dot, a, axis, keepdims)
    a = np.asanyarray(a)
    a = a.astype(np.result_type(a, 0.0), copy=False)     # a complex ``a`` stays complex
    a_dot = np.broadcast_to(a_dot, a.shape)
    g_full = _expand(g, a, axis, keepdims)
    if np.all(a != 0):
        others = _expand(np.prod(a, axis=axis, keepdims=True), a, axis, True) / a
        ratios = a_dot / a
        total = _expand(np.sum(ratios, axis=axis, keepdims=True), a, axis, True)
        return g_full * others * (total - ratios)
    out = np.empty(a.shape, dtype=np.result_type(a, a_dot))
    ones = np.ones(np.shape(np.prod(a, axis=axis, keepdims=keepdims)))
    for index in np.ndindex(a.shape):
        others, others_dot = a.copy(), a_dot.copy()
        others[index], others_dot[index] = 1.0, 0.0
        product = np.prod(others, axis=axis, keepdims=keepdims)
        spread = prod_adjoint(ones, others, product, axis, keepdims)
        out[index] = np.sum(spread * others_dot, axis=axis, keepdims=True)[
            tuple(0 if ax in _reduced_axes(axis, a.ndim) else i for ax, i in enumerate(index))]
    return g_full * out


def _reduced_axes(axis, ndim):
    if axis is None:
        return set(range(ndim))
    return {ax % ndim for ax in (axis if isinstance(axis, tuple) else (axis,))}


def max_adjoint(g, a, ans, axis, keepdims):
    if keepdims and type(a) is _NDARRAY and type(ans) is _NDARRAY and type(g) is _NDARRAY:
        # ans, g and the count keep the reduced axes: NumPy broadcasts them against a
        # item for item as the expanded views below do (three np.broadcast_to calls less)
        winners = a == ans
        return winners * (g / np.sum(winners, axis=axis, keepdims=True))
    if (xp := foreign_namespace(a)) is not None:
        return foreign.xp_max_adjoint(xp, g, a, ans, axis, keepdims)
    # g is shared among the tied winners: divided on the reduced shape, then spread over
    # the winners (one pass over ``a`` fewer than multiplying, then dividing, there;
    # the same numbers: ``g * 1 / n`` is ``g / n``, and a non-winner gets ``g / n * 0``)
    a = as_array(a)
    winners = a == _expand(ans, a, axis, keepdims)
    shared = g / np.sum(winners, axis=axis, keepdims=keepdims)
    return _expand(shared, a, axis, keepdims) * winners


def cumsum_adjoint(g, a, axis):
    if axis is None:
        return np.reshape(np.flip(np.cumsum(np.flip(np.ravel(g)))), np.shape(a))
    return np.flip(np.cumsum(np.flip(g, axis), axis), axis)




# -- products ----------------------------------------------------------------------------
def dot_adjoint_a(g, a, b):
    a_ndim, b_ndim = np.ndim(a), np.ndim(b)
    if a_ndim == 0 or b_ndim == 0:
        return unbroadcast(np.sum(g * b) if a_ndim == 0 else g * b, a)
    if b_ndim == 1:
        return np.multiply.outer(g, b) if a_ndim > 0 else g * b
    # g has shape a.shape[:-1] + b.shape[:-2] + b.shape[-1:]
    b_axes = list(range(b_ndim - 2)) + [b_ndim - 1]
    g_axes = list(range(a_ndim - 1, np.ndim(g)))
    return np.tensordot(g, b, (g_axes, b_axes))


def dot_adjoint_b(g, a, b):
    a_ndim, b_ndim = np.ndim(a), np.ndim(b)
    if a_ndim == 0 or b_ndim == 0:
        return unbroadcast(np.sum(g * a) if b_ndim == 0 else g * a, b)
    if b_ndim == 1:
        return np.tensordot(a, g, (list(range(a_ndim - 1)), list(range(a_ndim - 1))))
    a_axes = list(range(a_ndim - 1))
    g_axes = list(range(a_ndim - 1))
    result = np.tensordot(a, g, (a_axes, g_axes))  # shape a[-1] + b[:-2] + b[-1]
    return np.moveaxis(result, 0, -2) if b_ndim > 1 else result


def matmul_adjoint_a(g, a, b):
    if type(a) is _NDARRAY and type(b) is _NDARRAY and a.ndim == 2 and b.ndim == 2:
        return unbroadcast(np.matmul(g, b.T), a)   # (the general case's last line)
    if (xp := foreign_namespace(g, a, b)) is not None:
        return foreign.xp_matmul_adjoint_a(xp, g, a, b)
    if np.ndim(b) == 1:
        return unbroadcast(np.multiply.outer(g, b) if np.ndim(a) > 1 else g * b, a)
    if np.ndim(a) == 1:
        return unbroadcast(np.matmul(b, g[..., None])[..., 0], a)
    return unbroadcast(np.matmul(g, np.swapaxes(b, -1, -2)), a)


def matmul_adjoint_b(g, a, b):
    if type(a) is _NDARRAY and a.ndim == 2:
        return unbroadcast(np.matmul(a.T, g), b)   # (the general case's last lines)
    if (xp := foreign_namespace(g, a, b)) is not None:
        return foreign.xp_matmul_adjoint_b(xp, g, a, b)
    if np.ndim(a) == 1:
        g2 = np.expand_dims(g, -2) if np.ndim(b) > 1 else g
        return unbroadcast(np.matmul(np.expand_dims(a, -1), g2) if np.ndim(b) > 1 else g * a, b)
    if np.ndim(b) == 1:   # (a stack of matrices times a vector: g is a stack of vectors)
        return unbroadcast(np.matmul(np.swapaxes(a, -1, -2), g[..., None])[..., 0], b)
    return unbroadcast(np.matmul(np.swapaxes(a, -1, -2), g), b)


def inner_adjoint_a(g, a, b):
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return unbroadcast(np.sum(g * b) if np.ndim(a) == 0 else g * b, a)
    b_axes = list(range(np.ndim(b) - 1))
    g_axes = list(range(np.ndim(a) - 1, np.ndim(g)))
    return np.tensordot(g, b, (g_axes, b_axes))


def inner_adjoint_b(g, a, b):
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return unbroadcast(np.sum(g * a) if np.ndim(b) == 0 else g * a, b)
    a_axes = list(range(np.ndim(a) - 1))
    return np.tensordot(g, a, (a_axes, a_axes))
