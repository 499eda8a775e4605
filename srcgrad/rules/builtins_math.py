"""Python builtins and the ``math`` module (scalar code stays scalar)."""

import builtins
import math

from srcgrad.rules.registry import defadjoint, defelementwise

# The base's partial of a power: 0 for x ** 0 at x = 0 (not 0 * inf); the exponent is
# changed there only, so the partial's own derivative in the exponent stays right
# (constant folding drops it for a literal exponent other than 0).
_POWER_BASE = "y * x ** (y - 1 + _sg.power_at_zero(x, y))"
defelementwise(math.sin, "math.cos(x)")
defelementwise(math.cos, "-math.sin(x)")
defelementwise(math.tan, "1 + ans ** 2")
defelementwise(math.asin, "1 / math.sqrt(1 - x ** 2)")
defelementwise(math.acos, "-1 / math.sqrt(1 - x ** 2)")
defelementwise(math.atan, "1 / (1 + x ** 2)")
defelementwise(math.atan2, "x / (x ** 2 + y ** 2)", "-y / (x ** 2 + y ** 2)", params=("y", "x"))
defelementwise(math.sinh, "math.cosh(x)")
defelementwise(math.cosh, "math.sinh(x)")
defelementwise(math.tanh, "1 - ans * ans")
defelementwise(math.asinh, "1 / math.sqrt(x ** 2 + 1)")
defelementwise(math.acosh, "1 / math.sqrt(x ** 2 - 1)")
defelementwise(math.atanh, "1 / (1 - x ** 2)")
defelementwise(math.exp, "ans")
defelementwise(math.expm1, "ans + 1")
defelementwise(math.log, "1 / (x * math.log(base))",
               "-math.log(x) / (base * math.log(base) ** 2)", params="x, base=math.e")
defelementwise(math.log1p, "1 / (1 + x)")
defelementwise(math.log2, "1 / (x * math.log(2.0))")
defelementwise(math.log10, "1 / (x * math.log(10.0))")
defelementwise(math.sqrt, "0.5 / ans")
defelementwise(math.pow, _POWER_BASE, "_sg.power_exponent_partial(x, ans)")
defelementwise(math.hypot, "x / ans", "y / ans")
defelementwise(math.fabs, "math.copysign(1.0, x)")
defelementwise(math.erf, "2 / math.sqrt(math.pi) * math.exp(-x ** 2)")
defelementwise(math.erfc, "-2 / math.sqrt(math.pi) * math.exp(-x ** 2)")
defelementwise(math.lgamma, "_sg.scalar_digamma(x)")
defelementwise(math.gamma, "ans * _sg.scalar_digamma(x)")
defelementwise(math.degrees, "180 / math.pi")
defelementwise(math.radians, "math.pi / 180")

# |z| of a complex number is not holomorphic: its own row, as ``np.absolute``'s.
defadjoint(builtins.abs, "x", x="g * _sg.abs_partial(x)",
           tangent={"x": "np.real(x_dot * _sg.abs_partial(x))"})
defelementwise(builtins.float, "1")
defelementwise(builtins.pow, _POWER_BASE, "_sg.power_exponent_partial(x, ans)")
defelementwise(builtins.max, "_sg.balanced_eq(x, ans, y)", "_sg.balanced_eq(y, ans, x)",
               name="builtins.max (two arguments)")
defelementwise(builtins.min, "_sg.balanced_eq(x, ans, y)", "_sg.balanced_eq(y, ans, x)",
               name="builtins.min (two arguments)")
defadjoint(builtins.sum, "iterable, start=0", iterable="_sg.sum_of_sequence_adjoint(g, iterable)",
           start="g", tangent="linear")
