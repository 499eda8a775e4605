"""The derivatives of ``np.prod`` up to the third, exact at zeros (no division), for the
rows of ``prod_adjoint`` and ``prod_adjoint_tangent`` (``rules.runtime_product_rules``).

Along the reduced axes, ``D^k prod(a)[d1, ..., dk]`` is the coefficient of ``t1 ... tk``
in ``prod_m (a_m + t1 d1_m + ... + tk dk_m)``: a product of polynomials of degree at
most one in each ``t_j``, kept as the coefficients of their monomials (one array per
subset of the directions). ``*_adjoint*`` helpers give each element ``i`` the same
derivative of the product of the others, ``prod_{m != i}``, times the cotangent ``v``.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.adjoints import _expand, _reduced_axes
from srcgrad.runtime.core import as_array

__all__ = ["prod_adjoint_third", "prod_second", "prod_tangent", "prod_third"]


def _rows(x, a, axis):
    """``x`` (shaped like ``a``) with the reduced axes moved last and flattened."""
    x = np.broadcast_to(as_array(x), np.shape(a))
    reduced = sorted(_reduced_axes(axis, np.ndim(a)))
    kept = [ax for ax in range(np.ndim(a)) if ax not in reduced]
    moved = np.transpose(x, kept + reduced)
    return np.reshape(moved, np.shape(moved)[:len(kept)] + (-1,))


def _unrows(rows, a, axis):
    """The inverse of ``_rows``: an array shaped like ``a``."""
    reduced = sorted(_reduced_axes(axis, np.ndim(a)))
    kept = [ax for ax in range(np.ndim(a)) if ax not in reduced]
    order = kept + reduced
    moved = np.reshape(rows, tuple(np.shape(a)[ax] for ax in order))
    return np.transpose(moved, [int(i) for i in np.argsort(order)])


def _times(p, q, full):
    """The product of two polynomials (``{subset: coefficient}``), keeping the monomials
    inside ``full`` (each direction at most once)."""
    out = {}
    for s in range(full + 1):
        if s & full != s:
            continue
        part = s
        while True:   # every split of s into a subset of p's and the rest of q's
            if part in p and s & ~part in q:
                term = p[part] * q[s & ~part]
                out[s] = out[s] + term if s in out else term
            if part == 0:
                break
            part = (part - 1) & s
    return out


def _element(a_rows, dirs_rows, m):
    poly = {0: a_rows[..., m]}
    for j, d in enumerate(dirs_rows):
        poly[1 << j] = d[..., m]
    return poly


def _coefficient(poly, full, like):
    return poly.get(full, np.zeros(like))


def _prepared(a, dirs, axis):
    a = as_array(a)
    dtype = np.result_type(a, *dirs, 0.0)
    a_rows = _rows(a, a, axis).astype(dtype, copy=False)
    return a, a_rows, [_rows(d, a, axis).astype(dtype, copy=False) for d in dirs]


def _derivative(a, dirs, axis, keepdims):
    """``D^k prod(a)[dirs]``, shaped like ``np.prod(a, axis, keepdims=keepdims)``."""
    a, a_rows, dirs_rows = _prepared(a, dirs, axis)
    full = (1 << len(dirs)) - 1
    poly = {0: np.ones(a_rows.shape[:-1], a_rows.dtype)}
    for m in range(a_rows.shape[-1]):
        poly = _times(poly, _element(a_rows, dirs_rows, m), full)
    out = _coefficient(poly, full, a_rows.shape[:-1])
    shape = np.shape(np.prod(np.zeros(np.shape(a), bool), axis=axis, keepdims=keepdims))
    return np.reshape(out, shape)


def _others(v, a, dirs, axis, keepdims):
    """``v`` times ``D^k prod_{m != i}(a)[dirs]`` for each element ``i``, shaped like ``a``."""
    a, a_rows, dirs_rows = _prepared(a, dirs, axis)
    full, n = (1 << len(dirs)) - 1, a_rows.shape[-1]
    one = {0: np.ones(a_rows.shape[:-1], a_rows.dtype)}
    before, after = [one], [one]
    for m in range(n):
        before.append(_times(before[-1], _element(a_rows, dirs_rows, m), full))
        after.append(_times(after[-1], _element(a_rows, dirs_rows, n - 1 - m), full))
    others = np.stack([_coefficient(_times(before[i], after[n - 1 - i], full), full,
                                    a_rows.shape[:-1]) for i in range(n)], axis=-1)
    return _expand(v, a, axis, keepdims) * _unrows(others, a, axis)


def prod_tangent(t, a, axis, keepdims):
    """``D prod(a)[t]``."""
    return _derivative(a, [t], axis, keepdims)


def prod_second(t, e, a, axis, keepdims):
    """``D^2 prod(a)[t, e]``."""
    return _derivative(a, [t, e], axis, keepdims)


def prod_third(t, e, f, a, axis, keepdims):
    """``D^3 prod(a)[t, e, f]``."""
    return _derivative(a, [t, e, f], axis, keepdims)


def prod_adjoint_third(v, t, e, a, axis, keepdims):
    """``v D^3 prod(a)[t, e, e_i]`` for each element ``i`` (the cotangent of ``a`` in
    ``prod_second``, and the derivative of ``prod_adjoint_tangent`` in ``a``)."""
    return _others(v, a, [t, e], axis, keepdims)
