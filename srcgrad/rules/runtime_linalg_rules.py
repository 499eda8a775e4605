"""Rows for the linear-algebra adjoint helpers of the analytic rows (``inv``, ``solve``,
``det``): each helper is linear in its cotangent and rational in the matrix, so its
forward and reverse rules are written with ``np.linalg.solve``, ``np.linalg.inv``,
``np.swapaxes`` and the helpers themselves. No conjugation: these maps are analytic, so
the same formulas hold for complex matrices (see ``srcgrad.runtime.linalg_adjoints``).

``A^-T`` below is ``np.swapaxes(np.linalg.inv(a), -1, -2)``; ``X = solve_adjoint_b(v,
a, b) = A^-T v`` the cotangent ``solve`` gives its right-hand side.
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defnondiff

# The norm rows' choice of formula and the piecewise-constant weights of |x| in its
# piecewise-linear norms (``srcgrad.rules.linalg_templates.NORM``).
defnondiff(rt.norm_kind, rt.norm_matrix_axes, rt.singular_pick, rt.norm_weights)


def _t(x):
    return f"np.swapaxes({x}, -1, -2)"


_INV_T = _t("np.linalg.inv(a)")
_X = "_sg.solve_adjoint_b(v, a, b)"

# inv_adjoint(v, b) = -b^T v b^T, with b the inverse.
defadjoint(rt.inv_adjoint, "v, b",
           v=f"_sg.inv_adjoint(g, {_t('b')})",
           b=f"-(v @ {_t('b')} @ {_t('g')} + {_t('g')} @ {_t('b')} @ v)",
           tangent={"v": "_sg.inv_adjoint(v_dot, b)",
                    "b": f"-({_t('b_dot')} @ v @ {_t('b')} + {_t('b')} @ v @ {_t('b_dot')})"})
# det_adjoint(v, a, d) = v d A^-T, with d the determinant.
defadjoint(rt.det_adjoint, "v, a, d",
           v=f"np.sum(g * {_INV_T}, axis=(-2, -1)) * d",
           d=f"np.sum(g * {_INV_T}, axis=(-2, -1)) * v",
           a=f"-{_INV_T} @ {_t('g')} @ _sg.det_adjoint(v, a, d)",
           tangent={"v": "_sg.det_adjoint(v_dot, a, d)", "d": "_sg.det_adjoint(v, a, d_dot)",
                    "a": f"-_sg.det_adjoint(v, a, d) @ {_t('a_dot')} @ {_INV_T}"})
# det_tangent(t, a, d) = d tr(A^-1 t).
defadjoint(rt.det_tangent, "t, a, d",
           t="_sg.det_adjoint(g, a, d)",
           d="g * np.trace(np.linalg.solve(a, t), axis1=-2, axis2=-1)",
           a=f"-_sg.det_adjoint(g, a, d) @ {_t('t')} @ {_INV_T}",
           tangent={"t": "_sg.det_tangent(t_dot, a, d)", "d": "_sg.det_tangent(t, a, d_dot)",
                    "a": "-d * np.trace(np.linalg.solve(a, a_dot) @ np.linalg.solve(a, t), "
                         "axis1=-2, axis2=-1)"})
# solve_adjoint_b(v, a, b) = A^-T v (shaped like b).
defadjoint(rt.solve_adjoint_b, "v, a, b",
           v=f"_sg.solve_adjoint_b(g, {_t('a')}, v)",
           a=f"_sg.solve_adjoint_a(v, a, b, _sg.solve_adjoint_b(g, {_t('a')}, v))",
           tangent={"v": "_sg.solve_adjoint_b(v_dot, a, b)",
                    "a": f"-_sg.solve_adjoint_b({_t('a_dot')} @ {_X}, a, b)", "b": None})
# solve_adjoint_a(v, a, b, x) = -X x^T, with x the solution.
defadjoint(rt.solve_adjoint_a, "v, a, b, x",
           v=f"-_sg.solve_adjoint_b(g @ x, {_t('a')}, v)",
           x=f"-{_t('g')} @ {_X}",
           a=f"-_sg.solve_adjoint_a(v, a, b, _sg.solve_adjoint_b(g, {_t('a')}, g) @ x)",
           tangent={"v": "_sg.solve_adjoint_a(v_dot, a, b, x)",
                    "x": "_sg.solve_adjoint_a(v, a, b, x_dot)",
                    "a": f"-_sg.solve_adjoint_a({_t('a_dot')} @ {_X}, a, b, x)", "b": None})
