"""Tangents (forward mode) of ``numpy.linalg``: the duals of ``linalg_adjoints``, on stacks
of matrices (``...ij``): Cholesky (for ``scipy.linalg``'s factor helpers),
multi_dot and the norms. The factorizations' tangents (``eigh``, ``svd``, ``qr``...)
are templates of rows (``srcgrad.rules.linalg_templates``).

Complex matrices: the tangent is the real-linear map ``dA -> d result``; where ``A^H``
enters the transposes are Hermitian ``H``.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import as_array


def _diagonal(m):
    return np.diagonal(m, axis1=-2, axis2=-1)


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
