"""Tangents (forward mode) of ``numpy.linalg``: the duals of ``linalg_adjoints``, on stacks
of matrices (``...ij``).

Each helper takes the input's tangent and the primal result ``ans`` and returns the
result's tangent, with the result's structure (``eigh`` gives an ``EighResult`` of
tangents). Formulas: M. Giles (2008) for inverses and powers; the eigen and SVD
perturbation formulas (Magnus 1985; Townsend 2016); QR as in Walter & Lehmann (2018).
Spectral formulas assume distinct eigenvalues / singular values (the reverse rules do too).
Complex matrices: the tangent is the real-linear map ``dA -> d result``; where ``A^H``
enters (``svd``, ``eigh``, ``qr``...) the transposes are Hermitian ``H`` and the free phase
of a singular or eigen vector is fixed as its reverse rule fixes it.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import as_array
from srcgrad.runtime.linalg_adjoints import H, T, _symmetric_from


def _like(ans, *items):
    """The tangents ``items`` in the structure of the result ``ans`` (a NamedTuple)."""
    return type(ans)(*items) if hasattr(ans, "_fields") else tuple(items)


def _diagonal(m):
    return np.diagonal(m, axis1=-2, axis2=-1)


def _imaginary_diagonal(m):
    """``i Im(diag(m))`` as a diagonal matrix (zeros for a real ``m``)."""
    if not np.iscomplexobj(m):
        return np.zeros(np.shape(m))
    return 1j * np.imag(_diagonal(m))[..., None, :] * np.eye(np.shape(m)[-1])


def pinv_tangent(a_dot, a, ans):
    """``dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P`` (constant rank)."""
    m, n = np.shape(a)[-2:]
    p = ans
    return (-p @ a_dot @ p + p @ H(p) @ H(a_dot) @ (np.eye(m) - a @ p)
            + (np.eye(n) - p @ a) @ H(a_dot) @ H(p) @ p)


def lstsq_tangent(a_dot, b_dot, a, b, ans):
    """Tangent of ``(x, residuals, rank, s)``: ``x = pinv(a) @ b`` (constant rank); the
    residuals are the squared norms of ``r = b - a x``; ``ds_i = Re(u_i^H dA v_i)``."""
    x, residuals, rank, s = ans
    p = np.linalg.pinv(a)
    vector = np.ndim(b) == 1
    b2, x2 = (b[:, None], x[:, None]) if vector else (b, x)
    x_dot = np.zeros(np.shape(x2), dtype=np.result_type(x2, 0.0))
    r_dot = np.zeros(np.shape(b2), dtype=np.result_type(x2, 0.0))
    if a_dot is not None:
        x_dot = x_dot + pinv_tangent(a_dot, a, p) @ b2
        r_dot = r_dot - a_dot @ x2
    if b_dot is not None:
        b_dot2 = b_dot[:, None] if vector else b_dot
        x_dot = x_dot + p @ b_dot2
        r_dot = r_dot + b_dot2
    r_dot = r_dot - a @ x_dot
    residuals_dot = np.zeros(np.shape(residuals))
    if np.size(residuals):
        residuals_dot = np.reshape(2 * np.sum(np.real(np.conj(b2 - a @ x2) * r_dot), axis=0),
                                   np.shape(residuals))
    s_dot = np.zeros(np.shape(s))
    if a_dot is not None:
        u, _, vt = np.linalg.svd(a, full_matrices=False)
        s_dot = np.real(_diagonal(H(u) @ a_dot @ H(vt)))
    return (x_dot[:, 0] if vector else x_dot, residuals_dot, 0, s_dot)


def matrix_power_tangent(a_dot, a, n):
    """``d(A^n) = sum_k A^k dA A^(n-1-k)``; a negative power through ``A^-1``."""
    if n == 0:
        return np.zeros(np.shape(a))
    if n < 0:
        inverse = np.linalg.inv(a)
        return matrix_power_tangent(-inverse @ a_dot @ inverse, inverse, -n)
    powers = [np.broadcast_to(np.eye(np.shape(a)[-1]), np.shape(a))]
    for _ in range(n - 1):
        powers.append(powers[-1] @ a)
    return sum(powers[k] @ a_dot @ powers[n - 1 - k] for k in range(n))


def multi_dot_tangent(arrays_dot, arrays):
    """The product rule over the chain: one term per array that has a nonzero tangent."""
    arrays = list(arrays)
    terms = [np.linalg.multi_dot(arrays[:i] + [dot] + arrays[i + 1:])
             for i, dot in enumerate(arrays_dot) if np.any(dot)]
    if not terms:
        return np.zeros(np.shape(np.linalg.multi_dot(arrays)))
    return sum(terms[1:], terms[0])


def _gap_matrix(w):
    """``F_ij = 1 / (w_j - w_i)`` off the diagonal, 0 on it."""
    eye = np.eye(np.shape(w)[-1])
    return (1 - eye) / (w[..., None, :] - w[..., :, None] + eye)


def eigh_tangent(a_dot, ans, uplo):
    """``dw = diag(V^H dA V)``, ``dV = V (F o (V^H dA V))`` (each eigenvector's phase
    kept: ``diag(V^H dV) = 0``); ``dA`` is the Hermitian matrix read from the triangle
    LAPACK read."""
    w, v = ans
    inner = H(v) @ _symmetric_from(a_dot, lower=uplo == "L") @ v
    return _like(ans, np.real(_diagonal(inner)), v @ (_gap_matrix(w) * inner))


def eigvalsh_tangent(a_dot, a, uplo):
    _, v = np.linalg.eigh(a, UPLO=uplo)
    return np.real(_diagonal(H(v) @ _symmetric_from(a_dot, lower=uplo == "L") @ v))


def eig_tangent(a_dot, ans):
    """``A = U diag(e) U^-1``: ``de = diag(C)``, ``C = U^-1 dA U``; the eigenvectors'
    tangent ``U (F o C)`` keeps each column at unit norm (NumPy's normalization)."""
    e, u = ans
    inner = np.linalg.solve(u, a_dot @ u)
    raw = u @ (_gap_matrix(e) * inner)
    norm_part = np.real(_diagonal(np.conj(T(u)) @ raw))
    return _like(ans, _diagonal(inner), raw - u * norm_part[..., None, :])


def eigvals_tangent(a_dot, a):
    e, u = np.linalg.eig(a)
    return _diagonal(np.linalg.solve(u, a_dot @ u))


def svd_tangent(a_dot, a, ans, full_matrices, compute_uv):
    """Townsend (2016): with ``dP = U^H dA V`` and ``F_ij = 1 / (s_j^2 - s_i^2)``,
    ``ds = Re diag(dP)``, ``dU = U (F o (dP S + S dP^H) + i Im(diag dP) / S) + (I - U U^H)
    dA V / S`` and ``dV = V (F o (S dP + dP^H S)) + (I - V V^H) dA^H U / S`` (the phase of
    each singular pair moves with U, as ``svd_adjoint`` assumes)."""
    if not compute_uv:
        u, _, vt = np.linalg.svd(a, full_matrices=False)
        return np.real(_diagonal(H(u) @ a_dot @ H(vt)))
    m, n = np.shape(a)[-2:]
    if full_matrices and m != n:
        raise NotImplementedError("the derivative of svd with full_matrices=True for a "
                                  "non-square matrix; pass full_matrices=False")
    u, s, vt = ans
    v = H(vt)
    inner = H(u) @ a_dot @ v
    s_row, s_col = s[..., None, :], s[..., :, None]
    f = _gap_matrix(s ** 2)
    u_dot = u @ (f * (inner * s_row + s_col * H(inner)) + _imaginary_diagonal(inner) / s_row)
    v_dot = v @ (f * (s_col * inner + H(inner) * s_row))
    if m > s.shape[-1]:
        u_dot = u_dot + (a_dot - u @ (H(u) @ a_dot)) @ v / s_row
    if n > s.shape[-1]:
        v_dot = v_dot + (H(a_dot) - v @ (vt @ H(a_dot))) @ u / s_row
    return _like(ans, u_dot, np.real(_diagonal(inner)), H(v_dot))


def qr_tangent(a_dot, ans, mode):
    """Reduced QR of a tall or square matrix: with ``C = Q^H dA R^-1`` and ``O`` the
    skew-Hermitian matrix built from C's strict lower triangle and ``i Im(diag C)`` (R's
    diagonal stays real, as LAPACK makes it), ``dQ = Q (O - C) + dA R^-1`` and
    ``dR = (C - O) R``."""
    if mode == "r":
        raise NotImplementedError("the derivative of np.linalg.qr with mode='r'")
    if mode == "raw":
        raise NotImplementedError("the derivative of np.linalg.qr with mode='raw'")
    q, r = ans
    if q.shape[-1] != r.shape[-1] or q.shape[-2] < q.shape[-1]:
        raise NotImplementedError("the derivative of np.linalg.qr for a wide matrix "
                                  "or mode='complete'")
    dx_rinv = T(np.linalg.solve(T(r), T(a_dot)))     # dA R^-1
    inner = H(q) @ dx_rinv
    lower = np.tril(inner, -1)
    skew = lower - H(lower) + _imaginary_diagonal(inner)
    return _like(ans, q @ (skew - inner) + dx_rinv, (inner - skew) @ r)


def norm_tangent(x_dot, x, ans, ord, axis, keepdims):
    """A norm is a real scalar function of each slice: its tangent is the slice's
    gradient (``norm_adjoint`` with a unit cotangent) paired with ``x_dot``."""
    from srcgrad.runtime.linalg_adjoints import norm_adjoint

    x = as_array(x)
    gradient = norm_adjoint(np.ones(np.shape(ans)), x, ans, ord, axis, keepdims)
    paired = np.real(gradient * x_dot) if np.iscomplexobj(x) or np.iscomplexobj(x_dot) \
        else gradient * x_dot
    axes = tuple(range(x.ndim)) if axis is None else axis
    return np.reshape(np.sum(paired, axis=axes), np.shape(ans))


# -- second order: the derivatives of ``norm_adjoint(v, x, ans, ...)`` -------------------
def _euclidean_only(x, ord, axis):
    """The second-order rows below cover the Euclidean norms (vector 2-norm, Frobenius),
    and return False for them; True for the norms whose gradient is piecewise constant
    (vector ord 0, 1 and +-inf, matrix ord +-1 and +-inf, of real values: their partials
    below are 0).
    Any other norm is refused (a MissingRuleError), never a wrong number."""
    matrix = isinstance(axis, tuple) or (axis is None and np.ndim(x) == 2 and ord is not None)
    if ord in (None, "fro") or (ord == 2 and not matrix):
        return False
    from srcgrad.errors import MissingRuleError

    if ord in (1, -1, np.inf, -np.inf) or (ord == 0 and not matrix):
        if not np.iscomplexobj(x):
            return True
        raise MissingRuleError(      # |z| of a complex z is not piecewise linear
            f"a second or higher derivative of np.linalg.norm with ord={ord!r} of complex "
            "values is not supported yet (of real values it is)")
    kind = "matrix" if matrix else "vector"
    raise MissingRuleError(
        f"a second or higher derivative of np.linalg.norm with ord={ord!r} ({kind} norm) "
        "is not supported yet; the Euclidean norms (ord=None, 2 for vectors, 'fro') and "
        "the piecewise-linear ones (ord=1, inf...) have one")


def norm_tangent_in_x(t, x_dot, ans, ord, axis, keepdims):
    """``norm_tangent(t, x, ans)`` is ``Re <conj(x), t> / ans``: linear in ``x``."""
    if _euclidean_only(x_dot, ord, axis):
        return np.zeros(np.shape(ans))
    return norm_tangent(t, x_dot, ans, ord, axis, keepdims)


def norm_adjoint_in_x(v, x_dot, ans, ord, axis, keepdims):
    """``norm_adjoint(v, x, ans)`` is ``v * x / ans``: linear in ``x`` (and self-adjoint)."""
    from srcgrad.runtime.linalg_adjoints import norm_adjoint

    if _euclidean_only(x_dot, ord, axis):
        return np.zeros(np.shape(x_dot))
    return norm_adjoint(v, x_dot, ans, ord, axis, keepdims)


def norm_adjoint_in_ans(v, ans_dot, x, ans, ord, axis, keepdims):
    """``d(v * x / ans) = -v * x * ans_dot / ans ** 2``."""
    from srcgrad.runtime.linalg_adjoints import norm_adjoint

    if _euclidean_only(x, ord, axis):
        return np.zeros(np.shape(x))
    return -norm_adjoint(v * ans_dot / np.where(ans == 0, 1, ans), x, ans, ord, axis, keepdims)


def norm_adjoint_in_ans_transpose(g, v, x, ans, ord, axis, keepdims):
    """The transpose of ``ans_dot -> norm_adjoint_in_ans(v, ans_dot, ...)``."""
    if _euclidean_only(x, ord, axis):
        return np.zeros(np.shape(ans))
    return -norm_tangent(g, x, ans, ord, axis, keepdims) * v / np.where(ans == 0, 1, ans)
