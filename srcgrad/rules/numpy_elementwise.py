"""Elementwise NumPy functions: one row of partial derivatives each.

Names in a row: the inputs (``x``, ``y``...) and ``ans`` (the output). Reverse mode
multiplies by the cotangent ``g`` and sums back to each operand's shape; forward mode
multiplies by the tangent.
"""

import numpy as np

from srcgrad.rules.registry import defadjoint, defelementwise, deflinear, defrefuses

# Arithmetic (also the Python operators, see ``operators``).
# The base's partial of a power: 0 for x ** 0 at x = 0 (not 0 * inf); the exponent is
# changed there only, so the partial's own derivative in the exponent stays right
# (constant folding drops it for a literal exponent other than 0).
_POWER_BASE = "y * x ** (y - 1 + _sg.power_at_zero(x, y))"
defelementwise(np.add, "1", "1")
defelementwise(np.subtract, "1", "-1")
defelementwise(np.multiply, "y", "x")
defelementwise(np.true_divide, "1 / y", "-ans / y")
defelementwise(np.power, _POWER_BASE, "_sg.power_exponent_partial(x, ans)")
defelementwise(np.float_power, _POWER_BASE, "_sg.power_exponent_partial(x, ans)")
defelementwise(np.negative, "-1")
defelementwise(np.positive, "1")
defelementwise(np.reciprocal, "-ans * ans")
defelementwise(np.square, "2 * x")
defelementwise(np.sqrt, "0.5 / ans")
defelementwise(np.cbrt, "1 / (3 * ans ** 2)")
defelementwise(np.fabs, "np.sign(x)")
defelementwise(np.mod, "1", "-np.floor_divide(x, y)")
defelementwise(np.remainder, "1", "-np.floor_divide(x, y)")
defelementwise(np.fmod, "1", "-np.trunc(x / y)")

# Exponentials and logarithms.
defelementwise(np.exp, "ans")
defelementwise(np.exp2, "ans * np.log(2.0)")
defelementwise(np.expm1, "ans + 1")
defelementwise(np.log, "1 / x")
defelementwise(np.log2, "1 / (x * np.log(2.0))")
defelementwise(np.log10, "1 / (x * np.log(10.0))")
defelementwise(np.log1p, "1 / (1 + x)")
defelementwise(np.logaddexp, "np.exp(x - ans)", "np.exp(y - ans)")
defelementwise(np.logaddexp2, "2.0 ** (x - ans)", "2.0 ** (y - ans)")

# Trigonometric and hyperbolic.
defelementwise(np.sin, "np.cos(x)")
defelementwise(np.cos, "-np.sin(x)")
defelementwise(np.tan, "1 + ans ** 2")
defelementwise(np.arcsin, "1 / np.sqrt(1 - x ** 2)")
defelementwise(np.arccos, "-1 / np.sqrt(1 - x ** 2)")
defelementwise(np.arctan, "1 / (1 + x ** 2)")
defelementwise(np.arctan2, "x / (x ** 2 + y ** 2)", "-y / (x ** 2 + y ** 2)", params=("y", "x"))
defelementwise(np.hypot, "x / ans", "y / ans")
defelementwise(np.sinh, "np.cosh(x)")
defelementwise(np.cosh, "np.sinh(x)")
defelementwise(np.tanh, "1 - ans * ans")
defelementwise(np.arcsinh, "1 / np.sqrt(x ** 2 + 1)")
defelementwise(np.arccosh, "1 / np.sqrt(x ** 2 - 1)")
defelementwise(np.arctanh, "1 / (1 - x ** 2)")
defelementwise(np.deg2rad, "np.pi / 180")
defelementwise(np.rad2deg, "180 / np.pi")
defelementwise(np.radians, "np.pi / 180")
defelementwise(np.degrees, "180 / np.pi")
defelementwise(np.sinc, "_sg.sinc_partial(x, ans)")

# Selection.
defelementwise(np.maximum, "_sg.balanced_eq(x, ans, y)", "_sg.balanced_eq(y, ans, x)")
defelementwise(np.minimum, "_sg.balanced_eq(x, ans, y)", "_sg.balanced_eq(y, ans, x)")
defelementwise(np.fmax, "_sg.balanced_eq(x, ans, y)", "_sg.balanced_eq(y, ans, x)")
defelementwise(np.fmin, "_sg.balanced_eq(x, ans, y)", "_sg.balanced_eq(y, ans, x)")
_LOW = "_sg.clip_bound_partial(a, a_min, a_max, min, max, False)"
_HIGH = "_sg.clip_bound_partial(a, a_min, a_max, min, max, True)"
defelementwise(np.clip, "_sg.clip_mask(a, a_min, a_max, min, max)", _LOW, _HIGH, None, _LOW,
               _HIGH, params="a, a_min=None, a_max=None, out=None, min=None, max=None")
defadjoint(np.where, "condition, x=None, y=None", broadcasts=True,
           x="np.where(condition, g, 0.0)", y="np.where(condition, 0.0, g)",
           tangent={"x": "np.where(condition, x_dot, 0.0)", "y": "np.where(condition, 0.0, y_dot)"})

# Complex parts. A complex cotangent g of z pairs as Re(sum(g * dz)), so holomorphic rows
# keep their real form; |z|, Re, Im and arg are not holomorphic and get their own rows.
defadjoint(np.absolute, "x", x="g * _sg.abs_partial(x)",
           tangent={"x": "np.real(x_dot * _sg.abs_partial(x))"})
deflinear(np.conjugate, "x", "np.conj(g)")
deflinear(np.real, "val", "_sg.match_complex(val, g)", linear_in="val")
deflinear(np.imag, "val", "_sg.imag_adjoint(g, val)", linear_in="val")
defadjoint(np.angle, "z, deg=False", z="_sg.angle_adjoint(g, z) * (180 / np.pi if deg else 1)",
           tangent={"z": "_sg.angle_tangent(z_dot, z) * (180 / np.pi if deg else 1)"})
defelementwise(np.nan_to_num, "np.isfinite(x)",
               params="x, copy=True, nan=0.0, posinf=None, neginf=None")
defrefuses(np.nan_to_num, "nan", "posinf", "neginf")
