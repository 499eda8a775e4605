"""``scipy.linalg``: triangular, Cholesky and general solves, inverse, determinant and
the matrix exponential and square root (see ``srcgrad.runtime.scipy_linalg_adjoints``
for the formulas), registered only when SciPy imports.

SciPy's functions do not always say which module they live in, so every row names itself.
"""

try:
    import scipy.linalg as sl
except ImportError:  # pragma: no cover - exercised only without SciPy
    sl = None

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint

_ADJOINT_Y = "_sg.sylvester(np.transpose(a), np.transpose(b), g)"
_SYLVESTER = dict(
    a=f"-({_ADJOINT_Y} @ np.transpose(ans))", b=f"-(np.transpose(ans) @ {_ADJOINT_Y})",
    q=_ADJOINT_Y, tangent={"a": "_sg.sylvester(a, b, -(a_dot @ ans))",
                           "b": "_sg.sylvester(a, b, -(ans @ b_dot))",
                           "q": "_sg.sylvester(a, b, q_dot)"})

_TRI = "trans, lower, unit_diagonal"
_SOLVE = "lower, assume_a, transposed"


def _register():
    defadjoint(sl.solve_triangular, "a, b, trans=0, lower=False, unit_diagonal=False, "
               "overwrite_b=False, check_finite=True",
               a=f"_sg.solve_triangular_adjoint_a(g, a, ans, {_TRI})",
               b=f"_sg.solve_triangular_adjoint_b(g, a, {_TRI})",
               tangent={"a": f"_sg.solve_triangular_tangent(a_dot, None, a, ans, {_TRI})",
                        "b": f"_sg.solve_triangular_tangent(None, b_dot, a, ans, {_TRI})"},
               name="scipy.linalg.solve_triangular")
    defadjoint(sl.cholesky, "a, lower=False, overwrite_a=False, check_finite=True",
               a="_sg.cholesky_adjoint(g, ans, not lower)",
               tangent={"a": "_sg.cholesky_tangent(a_dot, ans, not lower)"},
               name="scipy.linalg.cholesky")
    defadjoint(sl.cho_factor, "a, lower=False, overwrite_a=False, check_finite=True",
               a="_sg.cho_factor_adjoint(g, a, ans)",
               tangent={"a": "_sg.cho_factor_tangent(a_dot, a, ans)"},
               name="scipy.linalg.cho_factor")
    defadjoint(sl.cho_solve, "c_and_lower, b, overwrite_b=False, check_finite=True",
               c_and_lower="_sg.cho_solve_adjoint_c(g, c_and_lower, b, ans)",
               b="_sg.cho_solve_adjoint_b(g, c_and_lower, b)",
               tangent={"c_and_lower": "_sg.cho_solve_tangent_c(c_and_lower_dot, "
                                       "c_and_lower, ans)",
                        # A^-1 b_dot, through the adjoint's A^-T = conj(A^-1 conj(.))
                        "b": "np.conj(_sg.cho_solve_adjoint_b(np.conj(b_dot), c_and_lower, "
                             "None))"},
               name="scipy.linalg.cho_solve")
    defadjoint(sl.solve, "a, b, lower=False, overwrite_a=False, overwrite_b=False, "
               "check_finite=True, assume_a=None, transposed=False",
               a=f"_sg.scipy_solve_adjoint_a(g, a, ans, {_SOLVE})",
               b=f"_sg.scipy_solve_adjoint_b(g, a, {_SOLVE})",
               tangent={"a": f"_sg.scipy_solve_tangent(a_dot, None, a, ans, {_SOLVE})",
                        "b": f"_sg.scipy_solve_tangent(None, b_dot, a, ans, {_SOLVE})"},
               name="scipy.linalg.solve")
    defadjoint(sl.inv, "a, overwrite_a=False, check_finite=True, assume_a=None, lower=False",
               a="_sg.inv_adjoint_read(g, ans, assume_a, lower)",
               tangent={"a": "_sg.inv_tangent_read(a_dot, ans, assume_a, lower)"},
               name="scipy.linalg.inv")
    defadjoint(sl.det, "a, overwrite_a=False, check_finite=True",
               a="_sg.det_adjoint(g, a, ans)", tangent={"a": "_sg.det_tangent(a_dot, a, ans)"},
               name="scipy.linalg.det")
    defadjoint(sl.expm, "A", A="_sg.expm_adjoint(g, A)",
               tangent={"A": "_sg.expm_tangent(A_dot, A)"}, name="scipy.linalg.expm")
    defadjoint(sl.sqrtm, "A, disp=None, blocksize=None", A="_sg.sqrtm_adjoint(g, ans)",
               tangent={"A": "_sg.sqrtm_tangent(A_dot, ans)"}, name="scipy.linalg.sqrtm")

    # A X + X B = Q: with Y solving A^T Y + Y B^T = g, Q gets Y, A gets -Y X^T and B
    # -X^T Y (transposes, not conjugates: autograd's convention); written in rows only
    # (the solve itself, transposes, products), so closed under differentiation.
    for function, name in ((sl.solve_sylvester, "scipy.linalg.solve_sylvester"),
                           (rt.sylvester, None)):
        defadjoint(function, "a, b, q", name=name, **_SYLVESTER)
    defadjoint(sl.solve_banded, "l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, "
               "check_finite=True",
               ab="_sg.solve_banded_adjoint(g, l_and_u, ab, ans, 'ab')",
               b="_sg.solve_banded_adjoint(g, l_and_u, ab, ans, 'b')",
               tangent={"ab": "_sg.solve_banded_tangent(l_and_u, ab, ans, ab_dot=ab_dot)",
                        "b": "_sg.solve_banded_tangent(l_and_u, ab, ans, b_dot=b_dot)"},
               name="scipy.linalg.solve_banded").constants.update(
                   l_and_u="the band's widths (integers)", overwrite_ab="a flag")


if sl is not None:
    _register()
