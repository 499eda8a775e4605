"""Higher derivatives of ``np.cumprod``, exact where the input holds zeros (no division).

``ans_j = prod_{m <= j} a_m``. Its k-th derivative along directions ``d_1 .. d_k`` is the
coefficient of ``e_1 ... e_k`` in ``prod_{m <= j} (a_m + e_1 d_1m + ... + e_k d_km)``
with nilpotent ``e_i`` (``e_i^2 = 0``): a polynomial with one coefficient per subset of
the directions, multiplied factor by factor along the axis. The adjoint of the
(k+1)-th derivative in its last direction, with cotangent ``g``, is the same coefficient
of ``prefix_{<i} * B_i``, where ``B_i = g_i + (a_{i+1} + ...) B_{i+1}`` sums the
suffixes backwards. Rows (``rules.runtime_stats_rules``) use them up to the third
derivative; a fourth is refused there."""

from __future__ import annotations

import numpy as np


def _moved(x, a, axis):
    """``x`` broadcast to ``a``'s shape with ``axis`` last (flattened for ``None``)."""
    x = np.broadcast_to(x, np.shape(a))
    if axis is None:
        return np.ravel(x)
    return np.moveaxis(x, axis, -1)


def _factor(poly, a_m, dirs_m):
    """``poly * (a_m + sum_i e_i d_im)``: coefficients indexed by subset bit masks."""
    out = [c * a_m for c in poly]
    for mask in range(len(poly)):
        for i, d in enumerate(dirs_m):
            if mask >> i & 1:
                out[mask] = out[mask] + poly[mask & ~(1 << i)] * d
    return out


def _product(p, q):
    """The product of two polynomials in nilpotent variables (subset convolution)."""
    out = [0.0] * len(p)
    for mask in range(len(p)):
        sub = mask
        while True:
            out[mask] = out[mask] + p[sub] * q[mask & ~sub]
            if sub == 0:
                break
            sub = (sub - 1) & mask
    return out


def nilpotent_cumprod(dirs, a, axis):
    """``D^k cumprod(a)[d_1, ..., d_k]``, shaped like ``np.cumprod(a, axis)``."""
    moved_a = _moved(a, a, axis)
    moved = [_moved(d, a, axis) for d in dirs]
    size = 1 << len(dirs)
    poly = [np.ones(moved_a.shape[:-1], dtype=np.result_type(a, *dirs, 0.0))] + \
        [0.0] * (size - 1)
    out = np.zeros(moved_a.shape, dtype=np.result_type(a, *dirs, 0.0))
    for m in range(moved_a.shape[-1]):
        poly = _factor(poly, moved_a[..., m], [d[..., m] for d in moved])
        out[..., m] = poly[size - 1]
    return out if axis is None else np.moveaxis(out, -1, axis)


def nilpotent_cumprod_adjoint(g, dirs, a, axis):
    """The cotangent of ``x`` in ``<g, D^(k+1) cumprod(a)[d_1, ..., d_k, x]>``, shaped
    like ``a``."""
    moved_a = _moved(a, a, axis)
    moved = [_moved(d, a, axis) for d in dirs]
    moved_g = np.ravel(g) if axis is None else np.moveaxis(g, axis, -1)
    size, n = 1 << len(dirs), moved_a.shape[-1]
    dtype = np.result_type(a, g, *dirs, 0.0)
    zero = [0.0] * (size - 1)
    prefixes = [[np.ones(moved_a.shape[:-1], dtype=dtype)] + zero]
    for m in range(n - 1):
        prefixes.append(_factor(prefixes[-1], moved_a[..., m], [d[..., m] for d in moved]))
    out = np.zeros(moved_a.shape, dtype=dtype)
    suffix = None
    for i in range(n - 1, -1, -1):
        if suffix is None:
            suffix = [moved_g[..., i]] + zero
        else:
            suffix = _factor(suffix, moved_a[..., i + 1], [d[..., i + 1] for d in moved])
            suffix[0] = suffix[0] + moved_g[..., i]
        out[..., i] = _product(prefixes[i], suffix)[size - 1]
    out = out if axis is None else np.moveaxis(out, -1, axis)
    return np.reshape(out, np.shape(a))


def cumprod_second(t, e, a, axis):
    return nilpotent_cumprod((t, e), a, axis)


def cumprod_third(t, e, f, a, axis):
    return nilpotent_cumprod((t, e, f), a, axis)


def cumprod_adjoint2(v, t, a, axis):
    return nilpotent_cumprod_adjoint(v, (t,), a, axis)


def cumprod_adjoint3(v, t, e, a, axis):
    return nilpotent_cumprod_adjoint(v, (t, e), a, axis)
