"""Rows for the helpers of the backward sweep on Python floats (``runtime.floats``) and
of the special functions' rows (``runtime.special_adjoints``: Bessel functions of any
order, the polygamma family of ``multigammaln`` and ``math.lgamma``). Each derivative is
written with the same helpers at a shifted order, so every order has rows:

    d bessel('jv', v, x) = (bessel('jv', v, x, -1) - bessel('jv', v, x, 1)) / 2 dx
    d scalar_polygamma(n, x) = scalar_polygamma(n + 1, x) dx
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defelementwise, deflinear, defnondiff

# The sweep on floats: ``a / b`` and ``a ** b`` as float64s compute (inf or nan where
# Python raises), the result as a float64; whether the sweep applies is a test.
defnondiff(rt.floats_apply, rt.bessel_weights, rt.power_at_zero)
# The base's partial of a power: 0 for x ** 0 at x = 0 (not 0 * inf); the exponent is
# changed there only, so the partial's own derivative in the exponent stays right
# (constant folding drops it for a literal exponent other than 0).
_POWER_BASE = "b * _sg.power(a, b - 1 + _sg.power_at_zero(a, b))"
defelementwise(rt.divide, "_sg.divide(1.0, b)", "-_sg.divide(ans, b)", params=("a", "b"))
defelementwise(rt.power, _POWER_BASE, "_sg.power_exponent_partial(a, ans)",
               params=("a", "b"))
deflinear(rt.float64, "x", "g")
deflinear(rt.float64_cotangent, "x", "g")

# Bessel functions: ``B(v, x)``'s derivative is ``lo B(v - 1) + hi B(v + 1)`` (holomorphic
# in x) plus ``c B(v)`` times Re(dx) (ive's factor exp(-|Re x|)); the weights depend on
# the name and the sign of Re x only. A derivative in the order ``v`` is refused.
_W = "_sg.bessel_weights(name, x)"
_HOLOMORPHIC = (f"({_W}[0] * _sg.bessel(name, v, x, shift - 1) + "
                f"{_W}[1] * _sg.bessel(name, v, x, shift + 1))")
defadjoint(rt.bessel, "name, v, x, shift=0", broadcasts=True, refuses=("v",),
           x=f"g * {_HOLOMORPHIC} + np.real(g * {_W}[2] * ans)",
           tangent={"x": f"x_dot * {_HOLOMORPHIC} + {_W}[2] * ans * np.real(x_dot)"})
defelementwise(rt.betaln, "_sg.digamma(a) - _sg.digamma(a + b)",
               "_sg.digamma(b) - _sg.digamma(a + b)", params=("a", "b"))
defelementwise(rt.zeta, None, "-x * _sg.zeta(x + 1, q)", params=("x", "q"), refuses=("x",))

# The polygamma family: multigammaln's partial and math.lgamma's (without SciPy).
defelementwise(rt.multidigamma, "_sg.multipolygamma(1, a, d)", None, params=("a", "d"))
defelementwise(rt.multipolygamma, None, "_sg.multipolygamma(n + 1, a, d)", None,
               params=("n", "a", "d"))
defelementwise(rt.scalar_digamma, "_sg.scalar_polygamma(1, x)")
defelementwise(rt.scalar_polygamma, None, "_sg.scalar_polygamma(n + 1, x)", params=("n", "x"))
