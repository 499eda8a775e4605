"""Adjoints of ``numpy.linalg``: every helper works on stacks of matrices (``...ij``).

Formulas follow M. Giles, "An extended collection of matrix derivative results for
forward and reverse mode AD" (2008), and the literature cited per function. The
factorizations' rules (``eigh``, ``svd``, ``qr``, ``cholesky``, ``slogdet``...) are written
with rows in ``srcgrad.rules.linalg_templates``, which cites their sources.
Symmetric and triangular factorizations read one triangle of their input (as LAPACK
does), so their cotangents live in that triangle: the derivative of the function NumPy
actually computes.

Complex matrices. A cotangent ``G`` of a complex ``A`` pairs as ``Re sum(G * dA)``
(autograd's convention). Functions analytic in ``A`` (``inv``, ``solve``, ``det``,
``matrix_power``, ``eig``...) then keep their real formulas with plain transposes ``T``.
The others (``svd``, ``eigh``, ``cholesky``, ``qr``, ``pinv``, norms, ``slogdet``) involve
``A^H``: their formulas are written in the convention of the complex-AD literature,
``dL = Re tr(G_c^H dA)`` with Hermitian transposes ``H``, for ``G_c = conj(G)``, and
conjugated back (``_conjugated``). For real matrices ``H`` is ``T`` and nothing changes.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime import foreign
from srcgrad.runtime.core import as_array
from srcgrad.runtime.namespaces import foreign_namespace


def T(x):
    return np.swapaxes(x, -1, -2)


def H(x):
    """The conjugate transpose (``T`` for a real stack)."""
    return np.conj(T(x)) if np.iscomplexobj(x) else T(x)


def _conj(x):
    return np.conj(x) if np.iscomplexobj(x) else x


def _add2d(x):
    return np.reshape(x, np.shape(x) + (1, 1))


def det_adjoint(g, a, ans):
    if (xp := foreign_namespace(a)) is not None:
        return foreign.xp_det_adjoint(xp, g, a, ans)
    return _add2d(g * ans) * T(np.linalg.inv(a))


def det_tangent(a_dot, a, ans):
    if (xp := foreign_namespace(a)) is not None:
        return foreign.xp_det_tangent(xp, a_dot, a, ans)
    return ans * np.trace(np.linalg.solve(a, a_dot), axis1=-2, axis2=-1)


def inv_adjoint(g, ans):
    if (xp := foreign_namespace(ans)) is not None:
        return foreign.xp_inv_adjoint(xp, g, ans)
    return -T(ans) @ g @ T(ans)


def _as_matrix(b, a):
    return b[..., None] if np.ndim(b) == 1 else b


def solve_adjoint_b(g, a, b):
    if (xp := foreign_namespace(a)) is not None:
        return foreign.xp_solve_adjoint_b(xp, g, a, b)
    gb = np.linalg.solve(T(a), _as_matrix(g, a))
    return gb[..., 0] if np.ndim(b) == 1 else gb


def solve_adjoint_a(g, a, b, ans):
    if (xp := foreign_namespace(a)) is not None:
        return foreign.xp_solve_adjoint_a(xp, g, a, b, ans)
    gb = np.linalg.solve(T(a), _as_matrix(g, a))
    return -gb @ T(_as_matrix(ans, a))


def norm_adjoint(g, x, ans, ord, axis, keepdims):
    """Vector norms (2, p >= 1, inf) and matrix norms ('fro', 'nuc', 2)."""
    x = as_array(x)
    matrix = isinstance(axis, tuple) or (axis is None and x.ndim == 2 and ord is not None)
    if axis is None and not matrix:
        flat = norm_adjoint(np.reshape(g, ()), np.ravel(x), np.reshape(ans, ()), ord, 0, False)
        return np.reshape(flat, x.shape)
    axes = axis if isinstance(axis, tuple) else ((0, 1) if axis is None and matrix else axis)
    if not keepdims:
        for ax in sorted(np.atleast_1d(axes) % x.ndim):
            g, ans = np.expand_dims(g, ax), np.expand_dims(ans, ax)
    g = np.real(g)          # a norm is real: the imaginary part of g pairs with nothing
    if ord in (None, "fro") or (ord == 2 and not matrix):
        return g * np.conj(x) / np.where(ans == 0, 1, ans)
    if matrix:
        return g * _matrix_norm_gradient(x, ord, axes)
    # d|x| = Re(conj(sign x) dx), sign x = x / |x| (NumPy's complex sign).
    direction = np.conj(np.sign(x))
    if ord in (np.inf, -np.inf):
        winners = np.abs(x) == ans
        return g * direction * winners / np.sum(winners, axis=axes, keepdims=True)
    if ord == 0:            # the count of nonzero entries: piecewise constant
        return g * np.zeros(np.shape(x))
    if ord == 1:
        return g * direction
    return g * direction * np.abs(x) ** (ord - 1) / ans ** (ord - 1)


def _matrix_norm_gradient(x, ord, axes):
    """The gradient of one matrix norm at each matrix of ``x`` (over ``axes``):
    ``d ||A||_* = Re tr(V U^H dA)`` and each singular value ``d s_i = Re(u_i^H dA v_i)``;
    the 1- and inf-norms are the largest (or smallest) column or row sum of ``|A|``."""
    moved = np.moveaxis(x, axes, (-2, -1))
    if ord in ("nuc", 2, -2):
        u, s, vt = np.linalg.svd(moved, full_matrices=False)
        if ord in (2, -2):
            pick = slice(0, 1) if ord == 2 else slice(-1, None)
            u, vt = u[..., :, pick], vt[..., pick, :]
        return np.moveaxis(np.conj(u @ vt), (-2, -1), axes)
    if ord not in (1, -1, np.inf, -np.inf):
        raise NotImplementedError(f"the derivative of the matrix norm with ord={ord!r}")
    by_rows = ord in (np.inf, -np.inf)    # inf: rows; 1: columns
    sums = np.sum(np.abs(moved), axis=-1 if by_rows else -2, keepdims=True)
    best = (np.max if ord > 0 else np.min)(sums, axis=-2 if by_rows else -1, keepdims=True)
    winners = (sums == best) / np.sum(sums == best, axis=-2 if by_rows else -1, keepdims=True)
    return np.moveaxis(np.conj(np.sign(moved)) * winners, (-2, -1), axes)


def _triangle_cotangent(full, uplo, hermitian=True):
    """The cotangent of the full matrix a routine built from one triangle of its input
    (``uplo``), moved onto that triangle: a Hermitian routine reads ``M = L + L^H +
    Re(diag)``, so the other triangle's cotangent arrives conjugated and the diagonal's
    is real; a complex-symmetric one (``hermitian=False``) reads ``M = L + L^T + diag``."""
    other = np.conj(T(full)) if hermitian and np.iscomplexobj(full) else T(full)
    strict = np.tril(full + other, -1) if uplo == "L" else np.triu(full + other, 1)
    diagonal = np.real(full) if hermitian else full
    return strict + diagonal * np.eye(np.shape(full)[-1])


def cholesky_adjoint(g, ans, upper):
    """Iain Murray, arXiv:1602.07527 (``A = L L^H``): ``phi = Phi(L^H gL_c)``, ``G_c =
    L^-H phi L^-1``; the cotangent lands in the triangle read. ``U = L^H`` when ``upper``,
    so its cotangent ``g`` is ``L``'s as ``gL_c = g^T``."""
    L = H(ans) if upper else ans
    gL = T(g) if upper else _conj(g)
    phi = np.tril(H(L) @ gL)
    phi = phi - 0.5 * phi * np.eye(L.shape[-1])
    S = np.linalg.solve(H(L), H(np.linalg.solve(H(L), H(phi))))
    return _triangle_cotangent(_conj(S), "U" if upper else "L")


def cholesky_tangent(a_dot, ans, upper):
    """``L_dot = L phi(L^-1 A_dot L^-H)``, ``phi`` the lower triangle with half its
    diagonal; ``A_dot`` the Hermitian matrix read from the triangle the factorization read."""
    factor = H(ans) if upper else ans
    sym = _symmetric_from(a_dot, lower=not upper)
    inner = np.linalg.solve(factor, H(np.linalg.solve(factor, sym)))
    phi = np.tril(inner) - 0.5 * np.eye(np.shape(inner)[-1]) * inner
    factor_dot = factor @ phi
    return H(factor_dot) if upper else factor_dot


def _symmetric_from(m, lower, hermitian=True):
    """The matrix a routine builds from one triangle of ``m``: Hermitian (the diagonal's
    imaginary part ignored, as LAPACK does) or, with ``hermitian=False``, symmetric."""
    part = np.tril(m, -1) if lower else np.triu(m, 1)
    if hermitian and np.iscomplexobj(m):
        return part + H(part) + np.eye(np.shape(m)[-1]) * np.real(m)
    return part + T(part) + np.eye(np.shape(m)[-1]) * m


