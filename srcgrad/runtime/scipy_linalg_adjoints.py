"""Runtime pieces of the ``scipy.linalg`` rows (see ``srcgrad.rules.scipy_linalg``).

Every derivative of those rows is written in the rows themselves: the solves call
SciPy again through the twins below (``triangular_solve``, ``cho_solve``,
``general_solve``, ``matrix_exp``), which carry the same rows, and the rest is NumPy
and the small linear maps here, each with a row whose transpose is another of them. So
a derivative differentiated again (``hvp``, ``grad(grad(f))``) meets rows only.

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

from srcgrad.runtime.linalg_adjoints import T, _symmetric_from, _triangle_cotangent


def _linalg():
    import scipy.linalg

    return scipy.linalg


# -- linear pieces (each with a row: its transpose is itself or its partner) -------------
def column(v, a):
    """A right-hand side as a matrix: a vector ``b`` for a matrix ``a`` is one column."""
    return v[..., None] if np.ndim(v) == np.ndim(a) - 1 else v


def transposes(trans):
    """Does ``trans`` (``solve_triangular``'s, or ``solve``'s ``transposed``) solve with
    the transpose?"""
    if trans in (0, "N"):        # (False == 0)
        return False
    if trans in (1, 2, "T", "C"):
        return True
    raise ValueError(f"solve_triangular: unknown trans={trans!r}")


def conjugates(trans):
    """Does ``trans`` solve with the conjugate transpose (``a^T`` for a real ``a``)?"""
    return transposes(trans) and trans in (2, "C")


def adjoint_trans(trans):
    """The ``trans`` that solves with ``M^T`` where ``trans`` solves with ``M`` (with
    ``conj(a)`` in place of ``a`` where ``trans`` conjugates)."""
    return 0 if transposes(trans) else 1


def conj_if(v, flag):
    """``conj(v)`` if ``flag`` (real-linear; its own transpose)."""
    return np.conj(v) if flag else v


def op_of(m, trans):
    """The matrix solved with, from the one read: ``m``, ``m^T`` or ``m^H`` by ``trans``
    (real-linear, its own transpose: ``Re sum(G * conj(D)^T) = Re sum(conj(G)^T * D)``)."""
    if not transposes(trans):
        return m
    return conj_if(T(m), conjugates(trans))


def triangle_read(m, lower, unit_diagonal=False):
    """The part of ``m`` a triangular routine reads (not the diagonal if it is unit): a
    mask, its own transpose."""
    part = np.tril(m) if lower else np.triu(m)
    return part - np.eye(np.shape(m)[-1]) * m if unit_diagonal else part


def hermitian_sum(m):
    """``m + m^H`` (real-linear, its own transpose)."""
    return m + np.conj(T(m))


def factor_product(m, f, lower):
    """``m f`` for a lower factor, ``f m`` for an upper one (bilinear)."""
    return m @ f if lower else f @ m


# -- triangular, Cholesky and general solves ----------------------------------------------
def triangular_solve(a, b, trans=0, lower=False, unit_diagonal=False):
    """``scipy.linalg.solve_triangular`` (the twin its rows call)."""
    return _linalg().solve_triangular(a, b, trans=trans, lower=lower,
                                      unit_diagonal=unit_diagonal)


def cho_solve(c_and_lower, b):
    """``scipy.linalg.cho_solve`` (the twin its rows call)."""
    return _linalg().cho_solve(c_and_lower, b)


_SYMMETRIC = {"sym", "symmetric"}
_HERMITIAN = {"her", "hermitian", "pos", "positive definite"}
_GENERAL = {None, "gen", "general"}


def read_cotangent(m, assume_a, lower):
    """A full-matrix cotangent as the cotangent of the part ``assume_a`` reads (the
    transpose of ``read_tangent``)."""
    if assume_a in _GENERAL:
        return m
    if assume_a in _SYMMETRIC | _HERMITIAN:
        return _triangle_cotangent(m, "L" if lower else "U", assume_a in _HERMITIAN)
    raise NotImplementedError(f"the derivative of scipy.linalg.solve/inv with "
                              f"assume_a={assume_a!r}; use 'gen', 'sym', 'her' or 'pos'")


def read_tangent(m, assume_a, lower):
    """The matrix ``assume_a`` builds from ``m`` (the part it reads)."""
    if assume_a in _GENERAL:
        return m
    read_cotangent(m, assume_a, lower)   # refuses the structures it cannot read
    return _symmetric_from(m, lower, assume_a in _HERMITIAN)


def _conj(x):
    return np.conj(x) if np.iscomplexobj(x) else x


def general_solve(a, b, lower=False, assume_a=None, transposed=False):
    """What ``scipy.linalg.solve(a, b, ..., transposed=transposed)`` would give, also for
    complex operands, which SciPy refuses to solve transposed: the matrix read is then
    transposed here (a symmetric one is its own transpose, a Hermitian one's is its
    conjugate)."""
    if transposed and (np.iscomplexobj(a) or np.iscomplexobj(b)):
        if assume_a in _HERMITIAN:
            return _conj(general_solve(a, _conj(b), lower, assume_a, False))
        a = T(a) if assume_a in _GENERAL else a
        transposed = False
    return _linalg().solve(a, b, lower=lower, assume_a=assume_a, transposed=transposed)


# -- matrix functions ------------------------------------------------------------------------
def matrix_exp(a):
    """``scipy.linalg.expm`` (the twin its rows call)."""
    return _linalg().expm(a)


def upper_block(a, e):
    """``[[a, e], [0, a]]``, whose exponential holds the Frechet derivative ``L(a, e)``
    of ``expm`` at ``a`` in its upper right block (linear in ``a`` and ``e`` together)."""
    top = np.concatenate([a, e], axis=-1)
    bottom = np.concatenate([np.zeros(np.shape(e), np.result_type(a, e)), a], axis=-1)
    return np.concatenate([top, bottom], axis=-2)


def upper_right(m):
    """The upper right quarter of ``m`` (linear)."""
    n = np.shape(m)[-1] // 2
    return m[..., :n, n:]


def upper_right_adjoint(v, m):
    """``v`` placed in the upper right quarter of zeros shaped like ``m`` (the transpose
    of ``upper_right``)."""
    n = np.shape(m)[-1] // 2
    out = np.zeros(np.shape(m), np.result_type(v, m))
    out[..., :n, n:] = v
    return out


def diagonal_blocks(m):
    """The sum of ``m``'s two diagonal quarters (the transpose of ``upper_block`` in
    its first argument)."""
    n = np.shape(m)[-1] // 2
    return m[..., :n, :n] + m[..., n:, n:]


def matrix_root(ans):
    """``scipy.linalg.sqrtm``'s result, refused where it is a tuple (``disp=False``)."""
    if isinstance(ans, tuple):
        raise NotImplementedError("the derivative of scipy.linalg.sqrtm with disp=False")
    return ans


def sylvester(a, b, q):
    """``scipy.linalg.solve_sylvester(a, b, q)``: ``X`` with ``A X + X B = Q`` (the rows
    of both are written in it, so that they are closed under differentiation)."""
    return _linalg().solve_sylvester(a, b, q)


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


def banded_transpose(l_and_u, ab):
    """The band of ``A^T`` (its widths swapped: ``swapped(l_and_u)``) from the band of
    ``A``: ``abT[r, j] = ab[l + u - r, j + r - l]`` (a permutation of the entries in the
    band, so its transpose is ``banded_transpose(swapped(l_and_u), .)``)."""
    lower, upper = l_and_u
    n = np.shape(ab)[1]
    out = np.zeros(np.shape(ab), dtype=np.result_type(ab, 0.0))
    for row in range(lower + upper + 1):
        shift = row - lower
        j = np.arange(max(0, -shift), min(n, n - shift))
        out[row, j] = ab[lower + upper - row, j + shift]
    return out


def swapped(l_and_u):
    """The widths ``(u, l)`` of the transpose of a band with widths ``(l, u)``."""
    lower, upper = l_and_u
    return (upper, lower)


def banded_solve(l_and_u, ab, b):
    """``scipy.linalg.solve_banded`` (the twin its rows call)."""
    return _linalg().solve_banded(l_and_u, ab, b)
