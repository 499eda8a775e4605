"""Rows for the runtime helpers that rule rows use as partial derivatives (``np.real``'s
adjoint, ``scipy.special``'s digamma family, the guarded logarithm and ratio of
``x ** p``'s exponent partial), each written with NumPy and helpers that are rows too:
differentiating generated code through one never reads srcgrad's own source.
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defelementwise, deflinear

# ``Re(g)`` for a real target, ``g`` for a complex one: linear in ``g``, and its own
# transpose (a real cotangent of a real part flows back unchanged).
deflinear(rt.match_complex, "target, v", "_sg.match_complex(v, g)", linear_in="v")
defelementwise(rt.digamma, "_sg.polygamma(1, x)")
defelementwise(rt.polygamma, None, "_sg.polygamma(n + 1, x)", params=("n", "x"))
defelementwise(rt.gamma, "ans * _sg.digamma(x)")
# ``like`` only says whether the power is complex (``ans`` is complex exactly then).
defelementwise(rt.safe_log, "_sg.safe_ratio(1.0, x, ans)", None, params="x, like=None")
defelementwise(rt.safe_ratio, "_sg.safe_ratio(1.0, x, ans)", "-_sg.safe_ratio(ans, x)", None,
               params="p, x, like=None")
# ``sinc'(x) = (cos(pi x) - sinc(x)) / x`` as a function of ``x`` and ``s = sinc(x)``
# (``ans``: that first derivative); at 0 the limits ``sinc''(0) = -pi^2 / 3`` and 0.
_SAFE_X = "np.where(x == 0, 1.0, x)"
defelementwise(rt.sinc_partial,
               f"np.where(x == 0, -np.pi ** 2 / 3, (-np.pi * np.sin(np.pi * x) - ans) / {_SAFE_X})",
               f"np.where(x == 0, 0.0, -1.0 / {_SAFE_X})", params=("x", "s"))
# ``exprel'(x) = (exp(x) - exprel(x)) / x``, and ``1/2 + x/3`` near 0 (as the helper).
_NEAR = "np.abs(x) < 1e-5"
defelementwise(rt.exprel_partial,
               f"np.where({_NEAR}, 1 / 3, (np.exp(x) - ans) / np.where({_NEAR}, 1.0, x))",
               f"np.where({_NEAR}, 0.0, -1.0 / np.where({_NEAR}, 1.0, x))", params=("x", "s"))
# ``d xlogy / dx = log(y)`` (0 where x == 0 and y == 0): constant in x.
defelementwise(rt.xlogy_x_partial, None,
               "np.where(np.logical_and(x == 0, y == 0), 0.0, 1.0 / y)", params=("x", "y"))

# ``abs_partial(x)``: sign(x) for a real x (piecewise constant: no derivative), conj(x)/|x|
# for a complex one, whose tangent is conj(dx)/|x| - conj(x) Re(conj(x) dx)/|x|^3 (0 at 0).
_MAG = "np.where(np.abs(x) == 0, 1.0, np.abs(x))"
defadjoint(rt.abs_partial, "x",
           x=f"(np.conj(g) / {_MAG} - np.real(g * np.conj(x)) * np.conj(x) / {_MAG} ** 3) * "
             "(x != 0) if np.iscomplexobj(x) else np.zeros(np.shape(x))",
           tangent={"x": f"(np.conj(x_dot) / {_MAG} - np.conj(x) * np.real(np.conj(x) * x_dot) "
                         f"/ {_MAG} ** 3) * (x != 0) if np.iscomplexobj(x) else "
                         "np.zeros(np.shape(x))"})
# ``angle_tangent(t, z) = Im(conj(z) t) / |z|^2`` and ``angle_adjoint(v, z) = -i v conj(z) /
# |z|^2`` (0 for a real z): each linear in its first argument and the other's transpose.
_M2 = "np.where(np.abs(z) == 0, 1.0, np.abs(z) ** 2)"
_REAL_Z = " if np.iscomplexobj(z) else np.zeros(np.shape(z))"
defadjoint(rt.angle_tangent, "t, z",
           t="_sg.angle_adjoint(g, z)",
           z=f"(1j * g * np.conj(t) / {_M2} - 2 * g * np.imag(np.conj(z) * t) * np.conj(z) / "
             f"{_M2} ** 2)" + _REAL_Z,
           tangent={"t": "_sg.angle_tangent(t_dot, z)",
                    "z": f"(np.imag(np.conj(z_dot) * t) / {_M2} - 2 * np.imag(np.conj(z) * t) * "
                         f"np.real(np.conj(z) * z_dot) / {_M2} ** 2)" + _REAL_Z})
defadjoint(rt.angle_adjoint, "v, z",
           v="_sg.angle_tangent(g, z)",
           z=f"(1j * v * np.conj(g) / {_M2} - 2 * v * np.imag(g * np.conj(z)) * np.conj(z) / "
             f"{_M2} ** 2)" + _REAL_Z,
           tangent={"v": "_sg.angle_adjoint(v_dot, z)",
                    "z": f"(-1j * v * np.conj(z_dot) / {_M2} + 2j * v * np.conj(z) * "
                         f"np.real(np.conj(z) * z_dot) / {_M2} ** 2)" + _REAL_Z})
