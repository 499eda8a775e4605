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


def _is_matrix_norm(x, ord, axis):
    """NumPy's reading of ``norm(x, ord, axis)``: a matrix norm over a pair of axes, or a
    vector norm (of the flattened ``x`` for ``axis=None``)."""
    return isinstance(axis, tuple) or (axis is None and np.ndim(x) == 2 and ord is not None)


def norm_kind(x, ord, axis):
    """Which formula the norm rows' gradient of ``norm(x, ord, axis)`` takes
    (``srcgrad.rules.linalg_templates.norm_gradient``): 'euclidean' (vector 2-norm,
    Frobenius), 'power' (vector p-norm, p finite, not 0, 1 or 2), 'selected' (the
    piecewise-linear norms: vector 1, +-inf and 0, matrix +-1 and +-inf: ``|x|`` weighted
    by ``norm_weights``), 'singular' (matrix 'nuc', 2, -2: ``U V^H`` of the SVD)."""
    matrix = _is_matrix_norm(x, ord, axis)
    if ord in (None, "fro") or (ord == 2 and not matrix):
        return "euclidean"
    if matrix:
        if ord in ("nuc", 2, -2):
            return "singular"
        if ord in (1, -1, np.inf, -np.inf):
            return "selected"
    elif ord in (0, 1, np.inf, -np.inf):
        return "selected"
    elif isinstance(ord, (int, float, np.integer, np.floating)):
        return "power"
    raise NotImplementedError(f"the derivative of np.linalg.norm with ord={ord!r}")


def norm_matrix_axes(axis):
    """The pair of axes a matrix norm reduces (the last two for ``axis=None``)."""
    return (-2, -1) if axis is None else axis


def singular_pick(ord):
    """The singular vectors a matrix norm's gradient ``U V^H`` is built from: all of them
    ('nuc'), the largest (2), the smallest (-2)."""
    return slice(None) if ord == "nuc" else slice(0, 1) if ord == 2 else slice(-1, None)


def norm_weights(x, ans, ord, axis, keepdims):
    """The piecewise-constant weight of each ``|x_i|`` in a piecewise-linear norm ('selected'
    in ``norm_kind``): 1 (vector 1), 0 (vector 0: a count), the entries reaching the
    maximum (or minimum) shared among ties (vector +-inf), the entries of the row or column
    with the largest (or smallest) sum of ``|x|`` (matrix +-inf: rows, +-1: columns)."""
    x = as_array(x)
    if not _is_matrix_norm(x, ord, axis):
        if ord in (0, 1):
            return np.full(x.shape, float(ord))
        reduced = tuple(range(x.ndim)) if axis is None else axis
        peak = np.reshape(ans, np.shape(np.sum(x, axis=reduced, keepdims=True)))
        winners = np.abs(x) == peak
        return winners / np.sum(winners, axis=reduced, keepdims=True)
    axes = norm_matrix_axes(axis)
    moved = np.abs(np.moveaxis(x, axes, (-2, -1)))
    by_rows = ord in (np.inf, -np.inf)    # inf: rows; 1: columns
    sums = np.sum(moved, axis=-1 if by_rows else -2, keepdims=True)
    best = (np.max if ord > 0 else np.min)(sums, axis=-2 if by_rows else -1, keepdims=True)
    winners = (sums == best) / np.sum(sums == best, axis=-2 if by_rows else -1, keepdims=True)
    return np.moveaxis(np.broadcast_to(winners, moved.shape), (-2, -1), axes)


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


