"""The pieces the rows of ``numpy.linalg``'s factorizations are written with.

Each factorization's reverse and forward rules (``srcgrad.rules.numpy_linalg``) are
compositions of NumPy rows (``@``, ``np.linalg.inv``, ``np.conj``...) and of the small
maps below, each a row itself (``srcgrad.rules.runtime_linalg_pieces_rules``): so a
generated gradient or tangent is differentiated again through rows only, at any order,
and the second derivative of ``eigh`` is the derivative of its first-order formula.

Every map here is linear over the reals in its first argument except ``eigen_gaps``;
its transpose, in the pairing ``Re sum(G * dX)`` of complex cotangents, is named next
to it. ``uplo`` is ``"L"`` or ``"U"``: the triangle a routine reads.
"""

from __future__ import annotations

import numpy as np


def _T(x):
    return np.swapaxes(x, -1, -2)


def _eye(x):
    return np.eye(np.shape(x)[-1])


def _lower(uplo):
    if uplo not in ("L", "U", "l", "u"):
        raise ValueError(f"UPLO must be 'L' or 'U', not {uplo!r}")
    return uplo in ("L", "l")


def uplo_of(upper):
    """The triangle a factorization with ``upper`` reads."""
    return "U" if upper else "L"


def symmetric_from(m, uplo, hermitian=True):
    """The matrix a routine builds from one triangle of ``m``: Hermitian (the diagonal's
    imaginary part ignored, as LAPACK does) or, with ``hermitian=False``, symmetric.
    Transpose: ``triangle_cotangent``."""
    part = np.tril(m, -1) if _lower(uplo) else np.triu(m, 1)
    other = np.conj(_T(part)) if hermitian else _T(part)
    diagonal = np.real(m) if hermitian else m
    return part + other + _eye(m) * diagonal


def triangle_cotangent(full, uplo, hermitian=True):
    """The cotangent of a full matrix moved onto the triangle it was built from
    (``symmetric_from``'s transpose): the other triangle's arrives conjugated (transposed
    when ``hermitian=False``), the diagonal's real part stays."""
    other = np.conj(_T(full)) if hermitian else _T(full)
    strict = np.tril(full + other, -1) if _lower(uplo) else np.triu(full + other, 1)
    diagonal = np.real(full) if hermitian else full
    return strict + _eye(full) * diagonal


def diag_embed(d):
    """The stack of diagonal matrices with diagonals ``d`` (transpose: ``np.diagonal``)."""
    d = np.asarray(d)
    return d[..., :, None] * np.eye(d.shape[-1])


def imag_diagonal(m):
    """``i Im(diag(m))`` as a diagonal matrix, real zeros for a real ``m`` (its own
    transpose, kept real for a real ``m``)."""
    if not np.iscomplexobj(m):
        return np.zeros(np.shape(m))
    return 1j * np.imag(np.diagonal(m, 0, -2, -1))[..., None, :] * _eye(m)


def lower_factor(m, upper):
    """``m^H`` if ``upper`` (the lower factor of ``A = U^H U``), else ``m``: its own
    transpose."""
    return np.conj(_T(m)) if upper else m


def tril_half(m):
    """The lower triangle with half its diagonal (Cholesky's ``Phi``): a mask, its own
    transpose."""
    return np.tril(m) - 0.5 * _eye(m) * m


def pairwise_difference(w):
    """``D_ij = w_j - w_i``; transpose: ``pairwise_difference_transpose``."""
    w = np.asarray(w)
    return w[..., None, :] - w[..., :, None]


def pairwise_difference_transpose(g):
    """The transpose of ``pairwise_difference``: column sums less row sums."""
    return np.sum(g, axis=-2) - np.sum(g, axis=-1)


def eigen_gaps(w):
    """``F_ij = 1 / (w_j - w_i)`` off the diagonal, 0 on it (distinct ``w`` assumed, as
    every spectral derivative formula does). ``dF = -F o F o D(dw)``."""
    w = np.asarray(w)
    eye = np.eye(w.shape[-1])
    return (1 - eye) / (pairwise_difference(w) + eye)


def qr_checked(v, ans, mode):
    """``v`` itself, once ``ans`` is a QR its derivative covers (the reduced QR of a tall
    or square matrix: ``Q R`` with ``R`` square)."""
    if mode in ("r", "raw"):
        raise NotImplementedError(f"the derivative of np.linalg.qr with mode={mode!r}")
    q, r = ans
    if np.shape(q)[-1] != np.shape(r)[-1] or np.shape(q)[-2] < np.shape(q)[-1]:
        raise NotImplementedError("the derivative of np.linalg.qr for a wide matrix "
                                  "or mode='complete'")
    return v


def skew_hermitian(m):
    """``m - m^H`` (its own transpose)."""
    return m - np.conj(_T(m))


def checked_singular_values(s, a, full_matrices):
    """``s`` itself, once the SVD's shape is one its derivative covers: a square matrix,
    or ``full_matrices=False``."""
    m, n = np.shape(a)[-2:]
    if full_matrices and m != n:
        raise NotImplementedError("the derivative of svd with full_matrices=True for a "
                                  "non-square matrix; pass full_matrices=False")
    return s


def result_like(like, first, second, third=None, fourth=None):
    """The tangents (or cotangents) ``first, second[, third[, fourth]]`` in the structure
    of the result ``like`` (``eigh``'s ``EighResult``, ``svd``'s ``SVDResult``...)."""
    items = (first, second, third, fourth)[:len(like)]
    return type(like)(*items) if hasattr(like, "_fields") else tuple(items)


def block_upper(a, t):
    """``[[a, t], [0, a]]`` for stacks of square matrices of one shape: a matrix function
    ``f`` of it is ``[[f(a), Df(a)[t]], [0, f(a)]]``. Transposes: ``block_diagonal_sum`` (in ``a``)
    and ``block_upper_right`` (in ``t``)."""
    zeros = np.zeros(np.shape(a), np.result_type(a, t))
    return np.concatenate([np.concatenate([a, t], axis=-1),
                           np.concatenate([zeros, a], axis=-1)], axis=-2)


def block_diagonal_sum(m):
    """The sum of the two diagonal blocks of a ``block_upper`` stack (the transpose of
    ``block_upper`` in ``a``; its own transpose is ``block_upper(g, 0)``)."""
    k = np.shape(m)[-1] // 2
    return m[..., :k, :k] + m[..., k:, k:]


def block_upper_right(m):
    """The upper-right block of a ``block_upper`` stack (the transpose of ``block_upper``
    in ``t``; its own transpose is ``block_upper(0, g)``)."""
    k = np.shape(m)[-1] // 2
    return m[..., :k, k:]


def as_columns(v, b):
    """``v`` as a matrix of columns where ``b`` is a vector (``lstsq``'s right-hand side);
    transpose: ``from_columns``."""
    return np.asarray(v)[..., None] if np.ndim(b) == 1 else v


def from_columns(m, b):
    """The transpose of ``as_columns``: a vector again where ``b`` is one."""
    return m[..., 0] if np.ndim(b) == 1 else m


def residual_weights(w, residuals, columns):
    """``lstsq``'s residuals' cotangent, real, one per column of ``columns`` (zeros when
    NumPy returns no residuals: a square or rank-deficient problem). Transpose:
    ``residual_weights_transpose``."""
    if np.size(residuals):
        return np.real(w)
    return np.zeros(np.shape(columns)[-1:])


def residual_weights_transpose(w, residuals, columns):
    """The transpose of ``residual_weights``: shaped like ``residuals`` (empty when
    NumPy returns none)."""
    if np.size(residuals):
        return np.real(w)
    return np.zeros(np.shape(residuals))
