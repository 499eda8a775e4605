"""Rows for the runtime helpers that rule rows use as partial derivatives (``np.real``'s
adjoint, ``scipy.special``'s digamma family, the guarded logarithm and ratio of
``x ** p``'s exponent partial), each written with NumPy and helpers that are rows too:
differentiating generated code through one never reads srcgrad's own source.
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defelementwise, deflinear

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
