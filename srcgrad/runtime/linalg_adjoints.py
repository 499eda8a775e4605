"""Adjoints of ``numpy.linalg``: every helper works on stacks of matrices (``...ij``).

Formulas follow M. Giles, "An extended collection of matrix derivative results for
forward and reverse mode AD" (2008), and the eigen/SVD/QR literature cited per function.
Symmetric and triangular factorizations read one triangle of their input (as LAPACK
does), so their cotangents live in that triangle: the derivative of the function NumPy
actually computes.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import as_array, restructure


def T(x):
    return np.swapaxes(x, -1, -2)


def _add2d(x):
    return np.reshape(x, np.shape(x) + (1, 1))


def _eye_like(a):
    return np.eye(np.shape(a)[-1])


def det_adjoint(g, a, ans):
    return _add2d(g * ans) * T(np.linalg.inv(a))


def det_tangent(a_dot, a, ans):
    return ans * np.trace(np.linalg.solve(a, a_dot), axis1=-2, axis2=-1)


def slogdet_adjoint(g, a, ans):
    g = restructure(g, ans)
    return _add2d(g[1]) * T(np.linalg.inv(a))


def slogdet_tangent(a_dot, a, ans):
    sign, _ = ans
    return (np.zeros_like(sign), np.trace(np.linalg.solve(a, a_dot), axis1=-2, axis2=-1))


def inv_adjoint(g, ans):
    return -T(ans) @ g @ T(ans)


def pinv_adjoint(g, a, ans):
    m, n = np.shape(a)[-2:]
    eye_m, eye_n = np.eye(m), np.eye(n)
    return T(-ans @ T(g) @ ans
             + ans @ T(ans) @ g @ (eye_m - a @ ans)
             + (eye_n - ans @ a) @ g @ T(ans) @ ans)


def _as_matrix(b, a):
    return b[..., None] if np.ndim(b) == 1 else b


def solve_adjoint_b(g, a, b):
    gb = np.linalg.solve(T(a), _as_matrix(g, a))
    return gb[..., 0] if np.ndim(b) == 1 else gb


def solve_adjoint_a(g, a, b, ans):
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
    if ord in (None, "fro") or (ord == 2 and not matrix):
        return g * np.conj(x) / np.where(ans == 0, 1, ans)
    if matrix and ord in ("nuc", 2):
        moved = np.moveaxis(x, axes, (-2, -1))
        u, s, vt = np.linalg.svd(moved, full_matrices=False)
        if ord == 2:
            u, vt = u[..., :, :1], vt[..., :1, :]
        return g * np.moveaxis(u @ vt, (-2, -1), axes)
    if matrix:
        raise NotImplementedError(f"the derivative of the matrix norm with ord={ord!r}")
    if ord == np.inf:
        winners = np.abs(x) == ans
        return g * np.sign(x) * winners / np.sum(winners, axis=axes, keepdims=True)
    if ord == 1:
        return g * np.sign(x)
    if not ord > 1:
        raise NotImplementedError(f"the derivative of the vector norm with ord={ord!r}")
    return g * np.sign(x) * np.abs(x) ** (ord - 1) / ans ** (ord - 1)


def _triangle_cotangent(full, uplo):
    """A symmetric cotangent moved onto the one triangle LAPACK read."""
    sym = (full + T(full)) / 2
    tri = np.tril(np.ones(sym.shape[-2:]), -1) if uplo == "L" else np.triu(
        np.ones(sym.shape[-2:]), 1)
    return sym * np.eye(sym.shape[-1]) + 2 * sym * tri


def eigh_adjoint(g, ans, uplo):
    w, v = ans
    gw, gv = restructure(g, ans)
    out = v @ (as_array(gw)[..., :, None] * T(v))
    if np.any(gv):
        diff = w[..., None, :] - w[..., :, None]
        off = 1 - np.eye(w.shape[-1])
        f = off / (diff + np.eye(w.shape[-1]))
        out = out + v @ (f * (T(v) @ gv)) @ T(v)
    return _triangle_cotangent(np.real(out) if not np.iscomplexobj(v) else out, uplo)


def eigvalsh_adjoint(g, a, uplo):
    _, v = np.linalg.eigh(a, UPLO=uplo)
    return _triangle_cotangent(v @ (g[..., :, None] * T(v)), uplo)


def eig_adjoint(g, a, ans):
    """Real or complex eigenvalues and unit-norm eigenvectors (arXiv:1701.00392, 4.77)."""
    e, u = ans
    ge, gu = restructure(g, ans)
    n = e.shape[-1]
    f = 1 / (e[..., None, :] - e[..., :, None] + 1e-20)
    f = f * (1 - np.eye(n))
    ut = T(u)
    r = as_array(ge)[..., :, None] * np.eye(n)
    if np.any(gu):
        r = r + f * (ut @ gu)
        r = r - f * (ut @ np.conj(u) @ (np.real(ut @ gu) * np.eye(n)))
    out = np.linalg.solve(ut, r @ ut)
    return out if np.iscomplexobj(a) else np.real(out)


def eigvals_adjoint(g, a):
    e, u = np.linalg.eig(a)
    return eig_adjoint([g, np.zeros_like(u)], a, (e, u))


def cholesky_adjoint(g, ans, upper):
    """Iain Murray, arXiv:1602.07527; the cotangent lands in the triangle read."""
    L = T(ans) if upper else ans
    gL = T(g) if upper else g
    phi = np.tril(T(L) @ gL)
    phi = phi - 0.5 * phi * np.eye(L.shape[-1])
    S = np.linalg.solve(T(L), T(np.linalg.solve(T(L), T(phi))))
    return _triangle_cotangent(S, "U" if upper else "L")


def cholesky_tangent(a_dot, ans, upper):
    """``L_dot = L phi(L^-1 A_dot L^-T)``, ``phi`` the lower triangle with half its
    diagonal; ``A_dot`` the symmetric matrix read from the triangle the factorization read."""
    factor = T(ans) if upper else ans
    sym = _symmetric_from(a_dot, lower=not upper)
    inner = np.linalg.solve(factor, T(np.linalg.solve(factor, sym)))
    phi = np.tril(inner) - 0.5 * np.eye(np.shape(inner)[-1]) * inner
    factor_dot = factor @ phi
    return T(factor_dot) if upper else factor_dot


def _symmetric_from(m, lower):
    part = np.tril(m, -1) if lower else np.triu(m, 1)
    return part + T(part) + np.eye(np.shape(m)[-1]) * m


def svd_adjoint(g, a, ans, full_matrices, compute_uv):
    """Townsend, "Differentiating the singular value decomposition" (2016)."""
    if not compute_uv:
        u, _, vt = np.linalg.svd(a, full_matrices=False)
        return (u * g[..., None, :]) @ vt
    m, n = np.shape(a)[-2:]
    if full_matrices and m != n:
        raise NotImplementedError("the derivative of svd with full_matrices=True for a "
                                  "non-square matrix; pass full_matrices=False")
    u, s, vt = ans
    gu, gs, gvt = restructure(g, ans)
    v, gv = T(vt), T(gvt)
    k = s.shape[-1]
    eye = np.eye(k)
    f = 1 / (s[..., None, :] ** 2 - s[..., :, None] ** 2 + eye) * (1 - eye)
    utgu, vtgv = T(u) @ gu, T(v) @ gv
    core = (f * (utgu - T(utgu))) * s[..., None, :] + eye * as_array(gs)[..., :, None] \
        + s[..., :, None] * (f * (vtgv - T(vtgv)))
    out = u @ core @ vt
    if m > k:
        out = out + (np.eye(m) - u @ T(u)) @ gu @ (vt / s[..., :, None])
    if n > k:
        out = out + (u / s[..., None, :]) @ T(gv) @ (np.eye(n) - v @ vt)
    return out


def qr_adjoint(g, ans, mode):
    """Reduced QR of a tall or square matrix (Walter & Lehmann 2018; as in TensorFlow)."""
    if mode == "r":
        raise NotImplementedError("the derivative of np.linalg.qr with mode='r'")
    q, r = ans
    gq, gr = restructure(g, ans)
    if q.shape[-1] != r.shape[-1] or q.shape[-2] < q.shape[-1]:
        raise NotImplementedError("the derivative of np.linalg.qr for a wide matrix "
                                  "or mode='complete'")
    qdq = T(q) @ gq
    rdr = r @ T(gr)
    lower = np.tril(qdq - T(qdq) + rdr - T(rdr))
    grad_a = q @ (gr + T(np.linalg.solve(r, T(lower))))
    grad_b = T(np.linalg.solve(r, T(gq - q @ qdq)))
    return grad_a + grad_b


def lstsq_adjoints(g, a, b, ans):
    """Cotangents of ``(a, b)`` through the solution, residuals and singular values of
    a full-column-rank least-squares problem."""
    gx, gres, _, gs = restructure(g, ans)
    x = ans[0]
    vector = np.ndim(b) == 1
    b2, x2 = (b[:, None], x[:, None]) if vector else (b, x)
    gx2 = as_array(gx)[:, None] if vector else gx
    z = np.linalg.solve(T(a) @ a, gx2)
    r = b2 - a @ x2
    da = r @ T(z) - a @ z @ T(x2)
    db = a @ z
    if np.size(ans[1]) and np.ndim(gres):
        da = da - 2 * (r * gres) @ T(x2)
        db = db + 2 * r * gres
    if np.ndim(gs) and np.any(gs):
        u, _, vt = np.linalg.svd(a, full_matrices=False)
        da = da + (u * gs) @ vt
    return da, (db[:, 0] if vector else db)


def matrix_power_adjoint(g, a, n):
    if n == 0:
        return np.zeros_like(g)
    if n < 0:
        inverse = np.linalg.inv(a)
        return inv_adjoint(matrix_power_adjoint(g, inverse, -n), inverse)
    powers = [np.broadcast_to(np.eye(np.shape(a)[-1]), np.shape(a))]
    for _ in range(n - 1):
        powers.append(powers[-1] @ a)
    return sum(T(powers[k]) @ g @ T(powers[n - 1 - k]) for k in range(n))

