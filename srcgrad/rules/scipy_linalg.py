"""``scipy.linalg``: triangular, Cholesky and general solves, inverse, determinant and
the matrix exponential and square root (see ``srcgrad.runtime.scipy_linalg_adjoints``
for the formulas), registered only when SciPy imports.

Every template is written in rows only: the solves call SciPy again through runtime
twins that carry the same rows (``_sg.triangular_solve`` is ``solve_triangular``), and
the linear maps between them (the triangle read, transposes, conjugates) have rows whose
transposes are each other. So derivatives of any order differentiate through rows.

SciPy's functions do not always say which module they live in, so every row names itself.
"""

try:
    import scipy.linalg as sl
except ImportError:  # pragma: no cover - exercised only without SciPy
    sl = None

from srcgrad import runtime as rt
from srcgrad.rules import linalg_templates as lt
from srcgrad.rules.registry import defadjoint, deflinear, defnondiff


def _t(x):
    return f"np.swapaxes({x}, -1, -2)"


def _outer(left, right, a):
    """``left right^T`` for right-hand sides shaped like the solution."""
    return f"(_sg.column({left}, {a}) @ {_t(f'_sg.column({right}, {a})')})"


def _solved(call):
    """A solve of ``-dM x`` shaped like the solution (a vector ``x`` is one column)."""
    return f"np.reshape({call}, np.shape(ans))"


_ADJOINT_Y = "_sg.sylvester(np.transpose(a), np.transpose(b), g)"
_SYLVESTER = dict(
    a=f"-({_ADJOINT_Y} @ np.transpose(ans))", b=f"-(np.transpose(ans) @ {_ADJOINT_Y})",
    q=_ADJOINT_Y, tangent={"a": "_sg.sylvester(a, b, -(a_dot @ ans))",
                           "b": "_sg.sylvester(a, b, -(ans @ b_dot))",
                           "q": "_sg.sylvester(a, b, q_dot)"})

# solve_triangular: x = M^-1 b for M = op(R), R the triangle read and op the identity,
# transpose or conjugate transpose: gb = M^-T g (a solve with conj(a) where op
# conjugates), gR = op(-gb x^T) (op is its own transpose), ga = R's mask of gR.
_TRI = "trans, lower, unit_diagonal"
_TRI_GB = ("_sg.triangular_solve(_sg.conj_if(a, _sg.conjugates(trans)), g, "
           "_sg.adjoint_trans(trans), lower, unit_diagonal)")
_TRIANGULAR = dict(
    a=f"_sg.triangle_read(_sg.op_of(-{_outer(_TRI_GB, 'ans', 'a')}, trans), lower, "
      "unit_diagonal)",
    b=_TRI_GB,
    tangent={"a": _solved(f"_sg.triangular_solve(a, -(_sg.op_of(_sg.triangle_read(a_dot, "
                          f"lower, unit_diagonal), trans) @ _sg.column(ans, a)), {_TRI})"),
             "b": f"_sg.triangular_solve(a, b_dot, {_TRI})"})

# cho_solve: A = L L^H (or U^H U) from the factor F read from c: gb = A^-T g =
# conj(A^-1 conj(g)), gA = -gb x^T, gL = (gA + gA^H) conj(L) (conj(U) (gA + gA^H));
# A_dot = L_dot L^H + L L_dot^H (U_dot^H U + U^H U_dot).
_C, _LOW = "c_and_lower[0]", "c_and_lower[1]"
_FACTOR = f"_sg.triangle_read({_C}, {_LOW})"
_CHO_GB = "np.conj(_sg.cho_solve(c_and_lower, np.conj(g)))"
_CHO_A_DOT = (f"_sg.hermitian_sum(_sg.factor_product(_sg.triangle_read(c_and_lower_dot[0], "
              f"{_LOW}), np.conj({_t(_FACTOR)}), {_LOW}))")
_CHOLESKY_SOLVE = dict(
    c_and_lower=f"(_sg.triangle_read(_sg.factor_product(_sg.hermitian_sum("
                f"-{_outer(_CHO_GB, 'ans', _C)}), np.conj({_FACTOR}), {_LOW}), {_LOW}), None)",
    b=_CHO_GB,
    tangent={"c_and_lower": _solved(f"_sg.cho_solve(c_and_lower, -({_CHO_A_DOT} @ "
                                    f"_sg.column(ans, {_C})))"),
             "b": "_sg.cho_solve(c_and_lower, b_dot)"})

# solve: M read from a by assume_a (all of it, or a symmetric/Hermitian triangle),
# solved with M or M^T (transposed).
_SOLVE = "lower, assume_a, transposed"
_SOLVE_GB = "_sg.general_solve(a, g, lower, assume_a, not transposed)"
_GENERAL_SOLVE = dict(
    a=f"_sg.read_cotangent(-_sg.op_of({_outer(_SOLVE_GB, 'ans', 'a')}, transposed), "
      "assume_a, lower)",
    b=_SOLVE_GB,
    tangent={"a": _solved(f"_sg.general_solve(a, -(_sg.op_of(_sg.read_tangent(a_dot, "
                          f"assume_a, lower), transposed) @ _sg.column(ans, a)), {_SOLVE})"),
             "b": f"_sg.general_solve(a, b_dot, {_SOLVE})"})

# expm: the Frechet derivative L(A, E) is the upper right block of expm([[A, E], [0, A]]),
# and its transpose in E is L(A^T, G).
_EXPM = dict(A=f"_sg.upper_right(_sg.matrix_exp(_sg.upper_block({_t('A')}, g)))",
             tangent={"A": "_sg.upper_right(_sg.matrix_exp(_sg.upper_block(A, A_dot)))"})


# solve_banded: A = banded_dense(ab); gb = A^-T g (a banded solve with the band of A^T),
# gab = the band of -gb x^T; x_dot = A^-1 (b_dot - A_dot x).
_BANDED_GB = ("_sg.banded_solve(_sg.swapped(l_and_u), _sg.banded_transpose(l_and_u, ab), "
              "g)")
_BANDED = dict(
    ab=f"-_sg.banded_of(l_and_u, {_outer(_BANDED_GB, 'ans', 'ab')})", b=_BANDED_GB,
    tangent={"ab": "_sg.banded_solve(l_and_u, ab, -(_sg.banded_dense(l_and_u, ab_dot) @ ans))",
             "b": "_sg.banded_solve(l_and_u, ab, b_dot)"})


def _register_pieces():
    """Rows of the runtime's pieces the templates above are written with."""
    defnondiff(rt.transposes, rt.conjugates, rt.adjoint_trans)
    deflinear(rt.column, "v, a", "np.reshape(g, np.shape(v))", linear_in="v")
    deflinear(rt.conj_if, "v, flag", "_sg.conj_if(g, flag)", linear_in="v")
    deflinear(rt.op_of, "m, trans", "_sg.op_of(g, trans)", linear_in="m")
    deflinear(rt.triangle_read, "m, lower, unit_diagonal=False",
              "_sg.triangle_read(g, lower, unit_diagonal)", linear_in="m")
    deflinear(rt.hermitian_sum, "m", "_sg.hermitian_sum(g)", linear_in="m")
    defadjoint(rt.factor_product, "m, f, lower",
               m=f"_sg.factor_product(g, {_t('f')}, lower)",
               f=f"_sg.factor_product(g, {_t('m')}, not lower)",
               tangent={"m": "_sg.factor_product(m_dot, f, lower)",
                        "f": "_sg.factor_product(m, f_dot, lower)"})
    deflinear(rt.read_cotangent, "m, assume_a, lower", "_sg.read_tangent(g, assume_a, lower)",
              linear_in="m")
    deflinear(rt.read_tangent, "m, assume_a, lower", "_sg.read_cotangent(g, assume_a, lower)",
              linear_in="m")
    defadjoint(rt.upper_block, "a, e", a="_sg.diagonal_blocks(g)", e="_sg.upper_right(g)",
               tangent="linear")
    deflinear(rt.upper_right, "m", "_sg.upper_right_adjoint(g, m)", linear_in="m")
    deflinear(rt.upper_right_adjoint, "v, m", "_sg.upper_right(g)", linear_in="v")
    deflinear(rt.diagonal_blocks, "m", "_sg.upper_block(g, np.zeros_like(g))", linear_in="m")
    deflinear(rt.matrix_root, "v", "g", linear_in="v")
    defnondiff(rt.swapped)
    deflinear(rt.banded_dense, "l_and_u, ab", "_sg.banded_of(l_and_u, g)", linear_in="ab")
    deflinear(rt.banded_of, "l_and_u, dense", "_sg.banded_dense(l_and_u, g)",
              linear_in="dense")
    deflinear(rt.banded_transpose, "l_and_u, ab",
              "_sg.banded_transpose(_sg.swapped(l_and_u), g)", linear_in="ab")


def _register():
    _register_pieces()
    for function, spec, name in (
            (sl.solve_triangular, "a, b, trans=0, lower=False, unit_diagonal=False, "
             "overwrite_b=False, check_finite=True", "scipy.linalg.solve_triangular"),
            (rt.triangular_solve, "a, b, trans=0, lower=False, unit_diagonal=False", None)):
        defadjoint(function, spec, name=name, **_TRIANGULAR)
    defadjoint(sl.cholesky, "a, lower=False, overwrite_a=False, check_finite=True",
               **lt.cholesky("not lower"), name="scipy.linalg.cholesky")
    # c holds the factor in one triangle and a copy of a's other triangle
    factor, read = "_sg.triangle_read(ans[0], lower)", "_sg.triangle_read({}, lower)"
    through = lt.cholesky("not lower", factor, read.format("g[0]"))
    defadjoint(sl.cho_factor, "a, lower=False, overwrite_a=False, check_finite=True",
               a=f"{through['a']} + g[0] - {read.format('g[0]')}",
               tangent={"a": f"({through['tangent']['a']} + a_dot - {read.format('a_dot')}, "
                             "None)"},
               name="scipy.linalg.cho_factor")
    for function, spec, name in (
            (sl.cho_solve, "c_and_lower, b, overwrite_b=False, check_finite=True",
             "scipy.linalg.cho_solve"), (rt.cho_solve, "c_and_lower, b", None)):
        defadjoint(function, spec, name=name, **_CHOLESKY_SOLVE)
    for function, spec, name in (
            (sl.solve, "a, b, lower=False, overwrite_a=False, overwrite_b=False, "
             "check_finite=True, assume_a=None, transposed=False", "scipy.linalg.solve"),
            (rt.general_solve, "a, b, lower=False, assume_a=None, transposed=False", None)):
        defadjoint(function, spec, name=name, **_GENERAL_SOLVE)
    defadjoint(sl.inv, "a, overwrite_a=False, check_finite=True, assume_a=None, lower=False",
               a=f"_sg.read_cotangent(-({_t('ans')} @ g @ {_t('ans')}), assume_a, lower)",
               tangent={"a": "-(ans @ _sg.read_tangent(a_dot, assume_a, lower) @ ans)"},
               name="scipy.linalg.inv")
    defadjoint(sl.det, "a, overwrite_a=False, check_finite=True",
               a="_sg.det_adjoint(g, a, ans)", tangent={"a": "_sg.det_tangent(a_dot, a, ans)"},
               name="scipy.linalg.det")
    defadjoint(sl.expm, "A", name="scipy.linalg.expm", **_EXPM)
    defadjoint(rt.matrix_exp, "A", **_EXPM)
    # X X = A: X dX + dX X = dA (a Sylvester equation), and its transpose in dA
    root = _t("_sg.matrix_root(ans)")
    defadjoint(sl.sqrtm, "A, disp=None, blocksize=None", name="scipy.linalg.sqrtm",
               A=f"_sg.sylvester({root}, {root}, g)",
               tangent={"A": "_sg.sylvester(_sg.matrix_root(ans), _sg.matrix_root(ans), A_dot)"})

    # A X + X B = Q: with Y solving A^T Y + Y B^T = g, Q gets Y, A gets -Y X^T and B
    # -X^T Y (transposes, not conjugates: autograd's convention); written in rows only
    # (the solve itself, transposes, products), so closed under differentiation.
    for function, name in ((sl.solve_sylvester, "scipy.linalg.solve_sylvester"),
                           (rt.sylvester, None)):
        defadjoint(function, "a, b, q", name=name, **_SYLVESTER)
    for function, spec, name in (
            (sl.solve_banded, "l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, "
             "check_finite=True", "scipy.linalg.solve_banded"),
            (rt.banded_solve, "l_and_u, ab, b", None)):
        defadjoint(function, spec, name=name, **_BANDED).constants.update(
            l_and_u="the band's widths (integers)", overwrite_ab="a flag")

if sl is not None:
    _register()
