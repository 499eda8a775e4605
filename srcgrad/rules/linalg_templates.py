"""The reverse and forward templates of ``numpy.linalg``'s factorizations, written with
NumPy rows and the rowed pieces of ``srcgrad.runtime.linalg_pieces`` only: a generated
gradient holds the formula itself, so differentiating it again (``hvp``,
``grad(grad(f))``, a third derivative) goes through rows, never through a helper's source.

Formulas (sources cited per factorization below): a complex cotangent pairs as
``Re sum(G * dA)``; where ``A^H`` enters, the literature's formula for ``G_c = conj(G)`` is
written and conjugated back. ``_sg.match_real(G, a)`` keeps a real matrix's cotangent
real. In the templates ``ans`` is the factorization's result and ``g`` its cotangent
(``_item(i)``: its i-th item, zeros where nothing flowed).
"""


def _t(x):
    return f"np.swapaxes({x}, -1, -2)"


def _h(x):
    return f"np.conj({_t(x)})"


def _diagonal(x):
    return f"np.diagonal({x}, 0, -2, -1)"


def _item(i):
    return f"_sg.restructure(g, ans)[{i}]"


def _row(x):
    return f"np.expand_dims({x}, -2)"


def _col(x):
    return f"np.expand_dims({x}, -1)"


# -- eigh / eigvalsh: A = V diag(w) V^H ------------------------------------------------
# G_c = V (diag(gw) + F o (V^H gV_c)) V^H (the phase of each eigenvector is free), on the
# triangle LAPACK read; dw = diag(V^H dA V), dV = V (F o (V^H dA V)).
_W, _V = "ans[0]", "ans[1]"
_EIGH_INNER = f"{_h(_V)} @ _sg.symmetric_from(a_dot, UPLO) @ {_V}"
EIGH = dict(
    a=f"_sg.triangle_cotangent(_sg.match_real(np.conj({_V}) @ (_sg.diag_embed(np.real("
      f"{_item(0)})) + _sg.eigen_gaps({_W}) * ({_t(_V)} @ {_item(1)})) @ {_t(_V)}, a), UPLO)",
    tangent={"a": f"_sg.result_like(ans, np.real({_diagonal(_EIGH_INNER)}), "
                  f"{_V} @ (_sg.eigen_gaps({_W}) * ({_EIGH_INNER})))"})
_VECTORS = "np.linalg.eigh(a, UPLO)[1]"
EIGVALSH = dict(
    a=f"_sg.triangle_cotangent(_sg.match_real(np.conj({_VECTORS}) * {_row('np.real(g)')} @ "
      f"{_t(_VECTORS)}, a), UPLO)",
    tangent={"a": f"np.real(np.sum(np.conj({_VECTORS}) * (_sg.symmetric_from(a_dot, UPLO) "
                  f"@ {_VECTORS}), axis=-2))"})

# -- slogdet: t = tr(A^-1 dA), d logabsdet = Re t, d sign = i sign Im t ------------------
_TRACE = "np.trace(np.linalg.solve(a, a_dot), axis1=-2, axis2=-1)"
SLOGDET = dict(
    a=f"_sg.match_real(np.expand_dims(np.real({_item(1)}) + 1j * np.imag({_item(0)} * "
      f"ans[0]), (-2, -1)) * {_t('np.linalg.inv(a)')}, a)",
    tangent={"a": f"_sg.result_like(ans, _sg.match_real(1j * ans[0] * np.imag({_TRACE}), "
                  f"ans[0]), np.real({_TRACE}))"})


# -- cholesky: A = L L^H (Murray, arXiv:1602.07527) ---------------------------------------
def cholesky(upper, factor="ans", g="g"):
    """``upper``: the template text saying whether ``factor`` (the result) is the upper
    factor; ``g``: its cotangent."""
    lower = f"_sg.lower_factor({factor}, {upper})"
    inverse = f"np.linalg.inv({lower})"
    phi = f"_sg.tril_half({_h(lower)} @ np.conj(_sg.lower_factor({g}, {upper})))"
    uplo = f"_sg.uplo_of({upper})"
    return dict(
        a=f"_sg.match_real(_sg.triangle_cotangent(np.conj({_h(inverse)} @ {phi} @ "
          f"{inverse}), {uplo}), a)",
        tangent={"a": f"_sg.lower_factor({lower} @ _sg.tril_half({inverse} @ "
                      f"_sg.symmetric_from(a_dot, {uplo}) @ {_h(inverse)}), {upper})"})


# -- qr: reduced, of a tall or square matrix (Walter & Lehmann 2018) ----------------------
# C = Q^H dA R^-1, D = triu(C, 1) + tril(C, -1)^H + Re diag(C): dQ = dA R^-1 - Q D,
# dR = D R; G_c = (gQ_c + Q N) R^-H with N = D^T(gR_c R^H - Q^H gQ_c).
_Q, _R = "ans[0]", "ans[1]"
_R_INV = f"np.linalg.inv({_R})"
_GQ = "_sg.restructure(_sg.qr_checked(g, ans, mode), ans)[0]"
_QR_D = f"_sg.triangle_cotangent({_h(_Q)} @ a_dot @ {_R_INV}, 'U')"
QR = dict(
    a=f"_sg.match_real(np.conj((np.conj({_GQ}) + {_Q} @ _sg.symmetric_from(np.conj("
      f"{_item(1)}) @ {_h(_R)} - {_h(_Q)} @ np.conj({_item(0)}), 'U')) @ {_h(_R_INV)}), a)",
    tangent={"a": f"_sg.result_like(ans, _sg.qr_checked(a_dot, ans, mode) @ {_R_INV} - {_Q} @ "
                  f"{_QR_D}, {_QR_D} @ {_R})"})


# -- svd: A = U S V^H (Townsend 2016; complex: Wan & Zhang, arXiv:1909.02659) -------------
def _singular_values(a):
    u, vt = f"np.linalg.svd({a}, full_matrices=False)[0]", \
        f"np.linalg.svd({a}, full_matrices=False)[2]"
    return dict(
        reverse=f"_sg.match_real(np.conj({u} * {_row('np.real(g)')} @ {vt}), {a})",
        tangent=f"np.real(np.sum(np.conj({u}) * ({a}_dot @ {_h(vt)}), axis=-2))")


_U, _VT = "ans[0]", "ans[2]"
_S = "_sg.checked_singular_values(ans[1], a, full_matrices)"
_F = f"_sg.eigen_gaps({_S} ** 2)"
_UHGU = f"{_h(_U)} @ np.conj({_item(0)})"
_SVD_CORE = (f"{_F} * _sg.skew_hermitian({_UHGU}) * {_row(_S)} + _sg.diag_embed(np.real("
             f"{_item(1)})) + {_col(_S)} * ({_F} * _sg.skew_hermitian({_VT} @ "
             f"{_t(_item(2))})) + _sg.imag_diagonal({_UHGU}) / {_row(_S)}")
_SVD_REVERSE = (
    f"_sg.match_real(np.conj({_U} @ ({_SVD_CORE}) @ {_VT} + (np.eye(np.shape(a)[-2]) - "
    f"{_U} @ {_h(_U)}) @ np.conj({_item(0)}) @ ({_VT} / {_col(_S)}) + ({_U} / {_row(_S)}) @ "
    f"np.conj({_item(2)}) @ (np.eye(np.shape(a)[-1]) - {_h(_VT)} @ {_VT})), a)")
_P = f"({_h(_U)} @ a_dot @ {_h(_VT)})"     # U^H dA V
_U_DOT = (f"{_U} @ ({_F} * ({_P} * {_row(_S)} + {_col(_S)} * {_h(_P)}) + _sg.imag_diagonal("
          f"{_P}) / {_row(_S)}) + (a_dot - {_U} @ ({_h(_U)} @ a_dot)) @ {_h(_VT)} / "
          f"{_row(_S)}")
_V_DOT = (f"{_h(_VT)} @ ({_F} * ({_col(_S)} * {_P} + {_h(_P)} * {_row(_S)})) + ("
          f"{_h('a_dot')} - {_h(_VT)} @ ({_VT} @ {_h('a_dot')})) @ {_U} / {_row(_S)}")
_SVD_TANGENT = f"_sg.result_like(ans, {_U_DOT}, np.real({_diagonal(_P)}), {_h(_V_DOT)})"
_VALUES = _singular_values("a")
SVD = dict(a=f"{_SVD_REVERSE} if compute_uv else {_VALUES['reverse']}",
           tangent={"a": f"{_SVD_TANGENT} if compute_uv else {_VALUES['tangent']}"})
_X_VALUES = _singular_values("x")
SVDVALS = dict(x=_X_VALUES["reverse"], tangent={"x": _X_VALUES["tangent"]})


# -- eig / eigvals: A = U diag(e) U^-1, unit-norm columns (arXiv:1701.00392, 4.77) --------
# Analytic in A: plain transposes. de = diag(C), C = U^-1 dA U; dU = U (F o C) less each
# column's change of norm.
_E, _EV = "ans[0]", "ans[1]"
_EIG_X = f"{_t(_EV)} @ {_item(1)}"
_EIG_C = f"np.linalg.solve({_EV}, a_dot @ {_EV})"
_EIG_RAW = f"{_EV} @ (_sg.eigen_gaps({_E}) * {_EIG_C})"
EIG = dict(
    a=f"_sg.match_real(np.linalg.solve({_t(_EV)}, (_sg.diag_embed({_item(0)}) + "
      f"_sg.eigen_gaps({_E}) * ({_EIG_X} - {_t(_EV)} @ np.conj({_EV}) @ _sg.diag_embed("
      f"np.real({_diagonal(_EIG_X)})))) @ {_t(_EV)}), a)",
    tangent={"a": f"_sg.result_like(ans, {_diagonal(_EIG_C)}, {_EIG_RAW} - {_EV} * "
                  f"{_row(f'np.real(np.sum(np.conj({_EV}) * ({_EIG_RAW}), axis=-2))')})"})
_EIG_VECTORS = "np.linalg.eig(a)[1]"
EIGVALS = dict(
    a=f"_sg.match_real(np.linalg.solve({_t(_EIG_VECTORS)}, {_col('g')} * "
      f"{_t(_EIG_VECTORS)}), a)",
    tangent={"a": _diagonal(f"np.linalg.solve({_EIG_VECTORS}, a_dot @ {_EIG_VECTORS})")})

# -- pinv (constant rank): dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P -----
_I_M, _I_N = "np.eye(np.shape(a)[-2])", "np.eye(np.shape(a)[-1])"
PINV = dict(
    a=f"_sg.match_real(-{_t('ans')} @ g @ {_t('ans')} + np.conj(({_I_M} - a @ ans) @ "
      f"{_t('g')} @ ans @ {_h('ans')}) + np.conj({_h('ans')} @ ans @ {_t('g')} @ ({_I_N} - "
      f"ans @ a)), a)",
    tangent={"a": f"-ans @ a_dot @ ans + ans @ {_h('ans')} @ {_h('a_dot')} @ ({_I_M} - a @ "
                  f"ans) + ({_I_N} - ans @ a) @ {_h('a_dot')} @ {_h('ans')} @ ans"})

# -- matrix_power: f(A) = A^n is analytic, and f([[A, T], [0, A]]) = [[f(A), Df(A)[T]],
# [0, f(A)]]; its adjoint is Df(A^T)[g] -------------------------------------------------
MATRIX_POWER = dict(
    a=f"_sg.match_real(_sg.block_upper_right(np.linalg.matrix_power(_sg.block_upper({_t('a')}, g),"
      f" n)), a)",
    tangent={"a": "_sg.block_upper_right(np.linalg.matrix_power(_sg.block_upper(a, a_dot), n))"})


# -- lstsq, of full column rank: x = pinv(A) b, residuals |b - A x|^2 per column, the
# singular values of A; z = (A^H A)^-1 gx_c, r = b - A x, w the residuals' cotangent:
# G_c(A) = r z^H - A z x^H - 2 (r w) x^H + U diag(gs) V^H, G_c(b) = A z + 2 r w ----------
_X2, _B2 = "_sg.as_columns(ans[0], b)", "_sg.as_columns(b, b)"
_RES = f"({_B2} - a @ {_X2})"
_Z = f"np.linalg.solve({_h('a')} @ a, np.conj(_sg.as_columns({_item(0)}, b)))"
_WEIGHTS = f"_sg.residual_weights({_item(1)}, ans[1], {_X2})"
_SV_U, _SV_VT = "np.linalg.svd(a, full_matrices=False)[0]", \
    "np.linalg.svd(a, full_matrices=False)[2]"


def _lstsq_tangent(x_dot, r_dot, s_dot):
    residuals = (f"_sg.residual_weights_transpose(2 * np.sum(np.real(np.conj({_RES}) * "
                 f"({r_dot})), axis=-2), ans[1], {_X2})")
    return f"_sg.result_like(ans, _sg.from_columns({x_dot}, b), {residuals}, 0, {s_dot})"


_PINV_DOT = (f"(-np.linalg.pinv(a) @ a_dot @ np.linalg.pinv(a) + np.linalg.pinv(a) @ "
             f"{_h('np.linalg.pinv(a)')} @ {_h('a_dot')} @ ({_I_M} - a @ np.linalg.pinv(a)) + "
             f"({_I_N} - np.linalg.pinv(a) @ a) @ {_h('a_dot')} @ {_h('np.linalg.pinv(a)')} @ "
             f"np.linalg.pinv(a))")
_X_DOT_A = f"{_PINV_DOT} @ {_B2}"
_X_DOT_B = "np.linalg.pinv(a) @ _sg.as_columns(b_dot, b)"
LSTSQ = dict(
    a=f"_sg.match_real(np.conj({_RES} @ {_h(_Z)} - a @ {_Z} @ {_h(_X2)} - 2 * ({_RES} * "
      f"{_WEIGHTS}) @ {_h(_X2)} + {_SV_U} * {_row(f'np.real({_item(3)})')} @ {_SV_VT}), a)",
    b=f"_sg.match_real(_sg.from_columns(np.conj(a @ {_Z} + 2 * {_RES} * {_WEIGHTS}), b), b)",
    structured=True,
    tangent={"a": _lstsq_tangent(_X_DOT_A, f"-a_dot @ {_X2} - a @ {_X_DOT_A}",
                                 f"np.real(np.sum(np.conj({_SV_U}) * (a_dot @ "
                                 f"{_h(_SV_VT)}), axis=-2))"),
             "b": _lstsq_tangent(_X_DOT_B, f"_sg.as_columns(b_dot, b) - a @ {_X_DOT_B}",
                                 "np.zeros_like(ans[3])")})


# -- norm: a real function of each slice of x (the vector over ``axis``, or the matrix over
# the pair ``axis``), by ``_sg.norm_kind``; ``_spread(h)`` spreads a per-slice h over its
# slice. Each |x_i| enters through d|x_i| = Re(abs_partial(x_i) dx_i) (sign x_i of a real
# x_i, conj(x_i) / |x_i| of a complex one); a p-norm's gradient is abs_partial(x)
# (|x| / ans) ** (p - 1); a piecewise-linear norm's is abs_partial(x) times the
# piecewise-constant weight of each |x_i|; the spectral norms' is conj(U V^H) over the
# singular vectors they pick (all for 'nuc': the SVD's rows differentiate it again).
def _spread(h):
    return f"_sg.sum_adjoint({h}, x, axis, keepdims)"


_KIND = "_sg.norm_kind(x, ord, axis)"
_AXES = "_sg.norm_matrix_axes(axis)"
_NORM_SVD = f"np.linalg.svd(np.moveaxis(x, {_AXES}, (-2, -1)), full_matrices=False)"
_POLAR = (f"np.moveaxis(np.conj({_NORM_SVD}[0][..., _sg.singular_pick(ord)] @ "
          f"{_NORM_SVD}[2][..., _sg.singular_pick(ord), :]), (-2, -1), {_AXES})")


def _norm_gradient(g):
    real = f"np.real({g})"
    return (f"{_spread(f'_sg.safe_ratio({real}, ans)')} * np.conj(x) if {_KIND} == "
            f"'euclidean' else {_spread(f'_sg.safe_ratio({real}, ans ** (ord - 1))')} * "
            f"_sg.abs_partial(x) * np.abs(x) ** (ord - 1) if {_KIND} == 'power' else "
            f"{_spread(real)} * _sg.abs_partial(x) * _sg.norm_weights(x, ans, ord, axis, "
            f"keepdims) if {_KIND} == 'selected' else {_spread(real)} * {_POLAR}")


NORM = dict(x=_norm_gradient("g"),
            tangent={"x": f"np.reshape(np.sum(np.real(({_norm_gradient('np.ones(np.shape(ans))')})"
                          f" * x_dot), axis=axis), np.shape(ans))"})
