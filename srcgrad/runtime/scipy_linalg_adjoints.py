"""Adjoints and tangents of ``scipy.linalg`` rows (see ``srcgrad.rules.scipy_linalg``).

Like LAPACK, SciPy reads one triangle of a triangular or symmetric argument, so each
cotangent lives in the part of the matrix that was read: the derivative of the function
SciPy actually computes. A matrix ``M`` solved with (``a`` or its transpose) gives

    x = M^-1 b:   gb = M^-T g,   gM = -gb x^T,   x_dot = M^-1 (b_dot - M_dot x).

Complex matrices: cotangents pair as ``Re sum(G * dA)``, so the solves (analytic in ``M``
and ``b``) keep these formulas with plain transposes; a Hermitian ``M`` (Cholesky, ``pos``,
``her``) is built from its triangle with ``L^H`` and reads the diagonal's real part.

SciPy is imported on first use, so the runtime itself still needs only NumPy.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import as_array
from srcgrad.runtime.linalg_adjoints import (
    H,
    T,
    _symmetric_from,
    _triangle_cotangent,
    cholesky_adjoint,
    cholesky_tangent,
)


def _linalg():
    import scipy.linalg

    return scipy.linalg


def _column(v, a):
    """A right-hand side as a matrix: a vector ``b`` for a matrix ``a`` is one column."""
    return v[..., None] if np.ndim(v) == np.ndim(a) - 1 else v


def _like(m, v, a):
    return m[..., 0] if np.ndim(v) == np.ndim(a) - 1 else m


def _transposes(trans):
    if trans in (0, "N"):
        return False
    if trans in (1, 2, "T", "C"):
        return True
    raise ValueError(f"solve_triangular: unknown trans={trans!r}")


def _triangle_read(m, lower, unit_diagonal=False):
    """The part of ``m`` a triangular routine reads (not the diagonal if it is unit)."""
    part = np.tril(m) if lower else np.triu(m)
    return part - np.eye(np.shape(m)[-1]) * m if unit_diagonal else part


def _conj(x):
    return np.conj(x) if np.iscomplexobj(x) else x


def _outer(left, right, a):
    """``left right^T`` for right-hand sides shaped like ``b`` (vectors or matrices)."""
    return _column(left, a) @ T(_column(right, a))


# -- solve_triangular -----------------------------------------------------------------------
def _conjugates(trans, a):
    """Does ``trans`` solve with ``a^H`` (not analytic in ``a``) for a complex ``a``?"""
    return trans in (2, "C") and np.iscomplexobj(a)


def solve_triangular_adjoint_b(g, a, trans, lower, unit_diagonal):
    """``M^-T g`` for the matrix ``M`` solved with (``a``, ``a^T`` or ``a^H``)."""
    if _conjugates(trans, a):    # M^-T g = conj(a^-1 conj(g))
        return _conj(_linalg().solve_triangular(a, _conj(g), trans=0, lower=lower,
                                                unit_diagonal=unit_diagonal))
    return _linalg().solve_triangular(a, g, trans=0 if _transposes(trans) else 1,
                                      lower=lower, unit_diagonal=unit_diagonal)


def solve_triangular_adjoint_a(g, a, ans, trans, lower, unit_diagonal):
    gb = solve_triangular_adjoint_b(g, a, trans, lower, unit_diagonal)
    if _conjugates(trans, a):    # gM = -gb x^T for M = a^H: ga = conj(gM)^T
        gm = -_conj(_outer(ans, gb, a))
    else:
        gm = -_outer(ans, gb, a) if _transposes(trans) else -_outer(gb, ans, a)
    return _triangle_read(gm, lower, unit_diagonal)


def solve_triangular_tangent(a_dot, b_dot, a, ans, trans, lower, unit_diagonal):
    rhs = _column(0.0 if b_dot is None else b_dot, a) * np.ones_like(_column(ans, a))
    if a_dot is not None:
        m_dot = _triangle_read(a_dot, lower, unit_diagonal)
        m_dot = H(m_dot) if _conjugates(trans, a) else (
            T(m_dot) if _transposes(trans) else m_dot)
        rhs = rhs - m_dot @ _column(ans, a)
    x_dot = _linalg().solve_triangular(a, rhs, trans=trans, lower=lower,
                                       unit_diagonal=unit_diagonal)
    return _like(x_dot, ans, a)


# -- Cholesky ----------------------------------------------------------------------------------
def cho_factor_adjoint(g, a, ans):
    """The factor's cotangent goes through Cholesky; the other triangle of ``c`` is a
    copy of ``a``'s, so its cotangent passes straight through."""
    c, lower = ans
    gc = g[0]
    factor = _triangle_read(c, lower)
    through = cholesky_adjoint(_triangle_read(gc, lower), factor, not lower)
    copied = np.triu(gc, 1) if lower else np.tril(gc, -1)
    return through + copied


def cho_factor_tangent(a_dot, a, ans):
    c, lower = ans
    factor_dot = cholesky_tangent(a_dot, _triangle_read(c, lower), not lower)
    copied = np.triu(a_dot, 1) if lower else np.tril(a_dot, -1)
    return (factor_dot + copied, None)


def _factor_parts(c_and_lower):
    c, lower = c_and_lower
    factor = _triangle_read(c, lower)
    return c, lower, factor


def cho_solve_adjoint_b(g, c_and_lower, b):
    """``A^-T g`` for the Hermitian ``A`` of the factor: ``conj(A^-1 conj(g))``."""
    return _conj(_linalg().cho_solve(c_and_lower, _conj(g)))


def cho_solve_adjoint_c(g, c_and_lower, b, ans):
    """``A = L L^H`` (or ``U^H U``): ``gA = -gb x^T``, then ``gL = (gA + conj(gA)^T)
    conj(L)`` (``conj(U) (gA + conj(gA)^T)``)."""
    c, lower, factor = _factor_parts(c_and_lower)
    gb = cho_solve_adjoint_b(g, c_and_lower, b)
    ga = -_outer(gb, ans, c)
    sym = ga + _conj(T(ga))
    gfactor = sym @ _conj(factor) if lower else _conj(factor) @ sym
    return (_triangle_read(gfactor, lower), None)


def cho_solve_tangent_c(c_dot, c_and_lower, ans):
    c, lower, factor = _factor_parts(c_and_lower)
    factor_dot = _triangle_read(c_dot[0], lower)
    a_dot = factor_dot @ H(factor) if lower else H(factor_dot) @ factor
    a_dot = a_dot + H(a_dot)
    x_dot = _linalg().cho_solve(c_and_lower, -a_dot @ _column(ans, c))
    return _like(x_dot, ans, c)


# -- general and symmetric solves, inverses ---------------------------------------------------
_SYMMETRIC = {"sym", "symmetric"}
_HERMITIAN = {"her", "hermitian", "pos", "positive definite"}
_GENERAL = {None, "gen", "general"}


def _read_cotangent(gm, assume_a, lower):
    """A full-matrix cotangent as the cotangent of the part ``assume_a`` reads."""
    if assume_a in _GENERAL:
        return gm
    if assume_a in _SYMMETRIC | _HERMITIAN:
        return _triangle_cotangent(gm, "L" if lower else "U", assume_a in _HERMITIAN)
    raise NotImplementedError(f"the derivative of scipy.linalg.solve/inv with "
                              f"assume_a={assume_a!r}; use 'gen', 'sym', 'her' or 'pos'")


def _read_tangent(m_dot, assume_a, lower):
    if assume_a in _GENERAL:
        return m_dot
    _read_cotangent(m_dot, assume_a, lower)   # refuses the structures it cannot read
    return _symmetric_from(m_dot, lower, assume_a in _HERMITIAN)


def _solve(a, b, lower, assume_a, transposed):
    """What ``scipy.linalg.solve(a, b, ..., transposed=transposed)`` would give, also for
    complex operands, which SciPy refuses to solve transposed: the matrix read is then
    transposed here (a symmetric one is its own transpose, a Hermitian one's is its
    conjugate)."""
    if transposed and (np.iscomplexobj(a) or np.iscomplexobj(b)):
        if assume_a in _HERMITIAN:
            return _conj(_solve(a, _conj(b), lower, assume_a, False))
        a = T(a) if assume_a in _GENERAL else a
        transposed = False
    return _linalg().solve(a, b, lower=lower, assume_a=assume_a, transposed=transposed)


def scipy_solve_adjoint_b(g, a, lower, assume_a, transposed):
    return _solve(a, g, lower, assume_a, not transposed)


def scipy_solve_adjoint_a(g, a, ans, lower, assume_a, transposed):
    gb = scipy_solve_adjoint_b(g, a, lower, assume_a, transposed)
    gm = -_outer(ans, gb, a) if transposed else -_outer(gb, ans, a)
    return _read_cotangent(gm, assume_a, lower)


def scipy_solve_tangent(a_dot, b_dot, a, ans, lower, assume_a, transposed):
    rhs = _column(0.0 if b_dot is None else b_dot, a) * np.ones_like(_column(ans, a))
    if a_dot is not None:
        m_dot = _read_tangent(a_dot, assume_a, lower)
        rhs = rhs - (T(m_dot) if transposed else m_dot) @ _column(ans, a)
    x_dot = _solve(a, rhs, lower, assume_a, transposed)
    return _like(x_dot, ans, a)


def inv_adjoint_read(g, ans, assume_a, lower):
    return _read_cotangent(-T(ans) @ g @ T(ans), assume_a, lower)


def inv_tangent_read(a_dot, ans, assume_a, lower):
    return -ans @ _read_tangent(a_dot, assume_a, lower) @ ans


# -- matrix functions ------------------------------------------------------------------------
def _per_matrix(fn, *stacks):
    """Apply a 2-D routine over the leading (batch) axes of its matrix arguments."""
    first = as_array(stacks[0])
    if first.ndim == 2:
        return fn(*stacks)
    out = [fn(*parts) for parts in zip(*(np.reshape(s, (-1,) + first.shape[-2:])
                                         for s in stacks))]
    return np.reshape(np.stack(out), first.shape[:-2] + out[0].shape)


def expm_adjoint(g, a):
    """The Frechet derivative is self-adjoint up to a transpose: ``gA = L(A^T, G)``."""
    return _per_matrix(lambda m, gm: _linalg().expm_frechet(m.T, gm, compute_expm=False),
                       a, g)


def expm_tangent(a_dot, a):
    return _per_matrix(lambda m, dm: _linalg().expm_frechet(m, dm, compute_expm=False),
                       a, a_dot)


def _root(ans):
    if isinstance(ans, tuple):
        raise NotImplementedError("the derivative of scipy.linalg.sqrtm with disp=False")
    return ans


def sqrtm_adjoint(g, ans):
    """``X X = A``: ``X^T gA + gA X^T = G`` (a Sylvester equation)."""
    return _per_matrix(lambda x, gm: _linalg().solve_sylvester(x.T, x.T, gm), _root(ans), g)


def sqrtm_tangent(a_dot, ans):
    return _per_matrix(lambda x, dm: _linalg().solve_sylvester(x, x, dm), _root(ans), a_dot)


def sylvester(a, b, q):
    """``scipy.linalg.solve_sylvester(a, b, q)``: ``X`` with ``A X + X B = Q`` (the rows
    of both are written in it, so that they are closed under differentiation)."""
    import scipy.linalg

    return scipy.linalg.solve_sylvester(a, b, q)


def banded_dense(l_and_u, ab):
    """The square matrix whose band ``ab`` holds (``ab[u + i - j, j] = A[i, j]``)."""
    lower, upper = l_and_u
    n = np.shape(ab)[1]
    out = np.zeros((n, n), dtype=np.result_type(ab, 0.0))
    for row in range(lower + upper + 1):
        offset = upper - row     # the diagonal this row of ab holds
        j = np.arange(max(offset, 0), min(n, n + offset))
        out[j - offset, j] = ab[row, j]
    return out


def banded_of(l_and_u, dense):
    """The band of ``dense`` in ``solve_banded``'s storage (the transpose of
    ``banded_dense`` as a linear map: the entries outside the band are dropped)."""
    lower, upper = l_and_u
    n = np.shape(dense)[0]
    out = np.zeros((lower + upper + 1, n), dtype=np.result_type(dense, 0.0))
    for row in range(lower + upper + 1):
        offset = upper - row
        j = np.arange(max(offset, 0), min(n, n + offset))
        out[row, j] = dense[j - offset, j]
    return out


def solve_banded_adjoint(g, l_and_u, ab, ans, which):
    """Cotangents for ``x = solve_banded(l_and_u, ab, b)``: ``b`` gets ``y = A^-T g``,
    ``ab`` the band of ``-y x^T``."""
    dense = banded_dense(l_and_u, ab)
    y = np.linalg.solve(np.transpose(dense), g)
    if which == "b":
        return y
    outer = np.multiply.outer(y, ans) if np.ndim(ans) == 1 else y @ np.transpose(ans)
    return -banded_of(l_and_u, outer)


def solve_banded_tangent(l_and_u, ab, ans, ab_dot=None, b_dot=None):
    """``dx = A^-1 (db - dA x)``."""
    import scipy.linalg

    rhs = np.zeros(np.shape(ans), dtype=np.result_type(ans, 0.0)) if b_dot is None else b_dot
    if ab_dot is not None:
        rhs = rhs - banded_dense(l_and_u, ab_dot) @ ans
    return scipy.linalg.solve_banded(l_and_u, ab, rhs)
