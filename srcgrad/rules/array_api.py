"""The array API standard's functions: a table of their own, keyed by the standard's names.

A function written against the standard takes its namespace from its inputs
(``xp = array_namespace(x, w)``, ``x.__array_namespace__()``, or ``xp`` passed in; see
``srcgrad.analysis.namespaces``) and calls ``xp.tanh``, ``xp.sum(x, axis=0)``... The
callee is known only by its name in the standard until the function runs, so these rows
are keyed by that name (``"tanh"``, ``"linalg.solve"``), not by a library's function
object. Every row's first parameter is ``xp``, bound to the namespace the call goes
through, and the partials and adjoints are written against ``xp.``: the generated sweeps
call the same namespace as the user's code, so no array leaves its library::

    h = xp.tanh(a)            ->   da = dh * (1 - h * h)
    s = xp.sin(a)             ->   da = ds * xp.cos(a)

The ``_sg`` helpers they call are written against the standard too (each takes its
namespace from its arrays, ``srcgrad.runtime.namespaces``).
"""

from __future__ import annotations

from srcgrad.rules.registry import Rule, _params, _times_g

XP_RULES: dict[str, Rule] = {}

# What the standard's functions compute without a derivative: integers, booleans,
# creation from shapes, roundings, comparisons, dtypes and devices.
XP_NONDIFF = set("""
    argmax argmin argsort nonzero count_nonzero searchsorted unique_all unique_counts
    unique_inverse unique_values sign signbit floor ceil round trunc floor_divide
    isnan isinf isfinite equal not_equal less less_equal greater greater_equal
    logical_and logical_or logical_not logical_xor bitwise_and bitwise_or bitwise_xor
    bitwise_invert bitwise_left_shift bitwise_right_shift all any
    zeros ones empty eye full arange linspace zeros_like ones_like empty_like full_like
    meshgrid tril_indices triu_indices asarray_constant
    result_type can_cast finfo iinfo isdtype broadcast_shapes
    linalg.matrix_rank
""".split())

# Attributes of a namespace that are not functions: dtypes and constants (``xp.pi``,
# ``xp.float32``). Reading them carries no derivative.
XP_CONSTANTS = set("""
    pi e inf nan newaxis bool int8 int16 int32 int64 uint8 uint16 uint32 uint64
    float32 float64 complex64 complex128 __array_api_version__
""".split())


def _row(name, spec, adjoints, tangent, **flags):
    params, defaults = _params("xp, " + spec)
    rule = Rule(f"xp.{name}", params, defaults, adjoints, tangent,
                constants={"xp": "the array namespace"}, **flags)
    XP_RULES[name] = rule
    return rule


def elementwise(name, *partials, params="x"):
    """``elementwise("sin", "xp.cos(x)")``: one partial per parameter, as
    ``registry.defelementwise`` (``g * partial`` summed back to each operand's shape)."""
    names = _params(params)[0]
    adjoints = {p: _times_g(d) for p, d in zip(names, partials) if d is not None}
    tangent = {p: d for p, d in zip(names, partials) if d is not None}
    return _row(name, params, adjoints, tangent, broadcasts=len(names) > 1,
                elementwise=True)


def linear(name, spec, adjoint, linear_in="x"):
    """A function linear in ``linear_in``: its tangent is the same call on the tangent."""
    return _row(name, spec, {linear_in: adjoint}, "linear", linear_in=(linear_in,))


def template(name, spec, tangent, broadcasts=False, **adjoints):
    return _row(name, spec, adjoints, tangent, broadcasts=broadcasts)


_B = "x1, x2"
# Arithmetic.
elementwise("add", "1", "1", params=_B)
elementwise("subtract", "1", "-1", params=_B)
elementwise("multiply", "x2", "x1", params=_B)
elementwise("divide", "1 / x2", "-ans / x2", params=_B)
elementwise("pow", "x2 * x1 ** (x2 - 1)", "_sg.power_exponent_partial(x1, ans)", params=_B)
elementwise("negative", "-1")
elementwise("positive", "1")
elementwise("reciprocal", "-ans * ans")
elementwise("square", "2 * x")
elementwise("sqrt", "0.5 / ans")
elementwise("abs", "xp.sign(x)")
elementwise("remainder", "1", "-xp.floor_divide(x1, x2)", params=_B)
# Exponentials and logarithms.
elementwise("exp", "ans")
elementwise("expm1", "ans + 1")
elementwise("log", "1 / x")
elementwise("log1p", "1 / (1 + x)")
elementwise("log2", "1 / (x * 0.6931471805599453)")
elementwise("log10", "1 / (x * 2.302585092994046)")
elementwise("logaddexp", "xp.exp(x1 - ans)", "xp.exp(x2 - ans)", params=_B)
# Trigonometric and hyperbolic.
elementwise("sin", "xp.cos(x)")
elementwise("cos", "-xp.sin(x)")
elementwise("tan", "1 + ans ** 2")
elementwise("asin", "1 / xp.sqrt(1 - x ** 2)")
elementwise("acos", "-1 / xp.sqrt(1 - x ** 2)")
elementwise("atan", "1 / (1 + x ** 2)")
elementwise("atan2", "x2 / (x1 ** 2 + x2 ** 2)", "-x1 / (x1 ** 2 + x2 ** 2)", params=_B)
elementwise("hypot", "x1 / ans", "x2 / ans", params=_B)
elementwise("sinh", "xp.cosh(x)")
elementwise("cosh", "xp.sinh(x)")
elementwise("tanh", "1 - ans * ans")
elementwise("asinh", "1 / xp.sqrt(x ** 2 + 1)")
elementwise("acosh", "1 / xp.sqrt(x ** 2 - 1)")
elementwise("atanh", "1 / (1 - x ** 2)")
# Selection: ties share the cotangent equally (as NumPy's rows do).
elementwise("maximum", "_sg.balanced_eq(x1, ans, x2)", "_sg.balanced_eq(x2, ans, x1)",
            params=_B)
elementwise("minimum", "_sg.balanced_eq(x1, ans, x2)", "_sg.balanced_eq(x2, ans, x1)",
            params=_B)
template("where", "condition, x1, x2", broadcasts=True,
         x1="xp.where(condition, g, xp.zeros_like(g))",
         x2="xp.where(condition, xp.zeros_like(g), g)",
         tangent={"x1": "xp.where(condition, x1_dot, xp.zeros_like(x1_dot))",
                  "x2": "xp.where(condition, xp.zeros_like(x2_dot), x2_dot)"})
linear("conj", "x", "xp.conj(g)")
linear("real", "x", "_sg.match_complex(x, g)")

# Reductions (``axis`` an int, a tuple or None; ``keepdims``).
_REDUCE = "x, axis=None, dtype=None, keepdims=False"
linear("sum", _REDUCE, "_sg.sum_adjoint(g, x, axis, keepdims)")
linear("mean", "x, axis=None, keepdims=False", "_sg.mean_adjoint(g, x, axis, keepdims)")
template("prod", _REDUCE, x="_sg.prod_adjoint(g, x, ans, axis, keepdims)",
         tangent={"x": "xp.sum(_sg.prod_adjoint(xp.ones_like(ans), x, ans, axis, keepdims)"
                       " * x_dot, axis=axis, keepdims=keepdims)"})
for _extremum in ("max", "min"):
    template(_extremum, "x, axis=None, keepdims=False",
             x="_sg.max_adjoint(g, x, ans, axis, keepdims)",
             tangent={"x": "xp.sum(_sg.max_adjoint(xp.ones_like(ans), x, ans, axis, keepdims)"
                           " * x_dot, axis=axis, keepdims=keepdims)"})
# Moments, written out: ``centered / (n - correction)`` is the derivative of the variance
# halved; a zero standard deviation (one element, or all equal) has derivative 0.
_MOMENT = "x, axis=None, correction=0.0, keepdims=False"
_SLOPE = ("(x - xp.mean(x, axis=axis, keepdims=True)) / "
          "(_sg.reduced_count(x, axis) - correction)")
_NONZERO = "xp.where(ans == 0, xp.ones_like(ans), ans)"
template("var", _MOMENT, x=f"2 * _sg.sum_adjoint(g, x, axis, keepdims) * {_SLOPE}",
         tangent={"x": f"2 * xp.sum(x_dot * {_SLOPE}, axis=axis, keepdims=keepdims)"})
template("std", _MOMENT, x=f"_sg.sum_adjoint(g / {_NONZERO}, x, axis, keepdims) * {_SLOPE}",
         tangent={"x": f"xp.sum(x_dot * {_SLOPE}, axis=axis, keepdims=keepdims) / {_NONZERO}"})

# Shapes: linear, transposed by the inverse reshaping.
_SAME_SHAPE = "xp.reshape(g, x.shape)"
linear("reshape", "x, shape, copy=None", _SAME_SHAPE)
linear("expand_dims", "x, axis=0", _SAME_SHAPE)
linear("squeeze", "x, axis", _SAME_SHAPE)
linear("permute_dims", "x, axes", "xp.permute_dims(g, _sg.inverse_axes(axes, x.ndim))")
linear("matrix_transpose", "x", "xp.matrix_transpose(g)")
linear("flip", "x, axis=None", "xp.flip(g, axis=axis)")
linear("moveaxis", "x, source, destination", "xp.moveaxis(g, destination, source)")
linear("broadcast_to", "x, shape", "_sg.unbroadcast(g, x)")
linear("astype", "x, dtype, copy=True, device=None", "_sg.cast_adjoint(g, x, dtype)")
linear("concat", "arrays, axis=0", "_sg.concatenate_adjoint(g, arrays, axis)",
       linear_in="arrays")
linear("stack", "arrays, axis=0", "_sg.stack_adjoint(g, arrays, axis)", linear_in="arrays")

# Products.
template("matmul", _B, x1="_sg.matmul_adjoint_a(g, x1, x2)",
         x2="_sg.matmul_adjoint_b(g, x1, x2)",
         tangent={"x1": "xp.matmul(x1_dot, x2)", "x2": "xp.matmul(x1, x2_dot)"})
template("vecdot", "x1, x2, axis=-1", broadcasts=True,
         x1="xp.expand_dims(g, axis=axis) * x2", x2="xp.expand_dims(g, axis=axis) * x1",
         tangent={"x1": "xp.vecdot(x1_dot, x2, axis=axis)",
                  "x2": "xp.vecdot(x1, x2_dot, axis=axis)"})

# The linalg extension.
XP_RULES["linalg.matmul"] = XP_RULES["matmul"]
XP_RULES["linalg.vecdot"] = XP_RULES["vecdot"]
XP_RULES["linalg.matrix_transpose"] = XP_RULES["matrix_transpose"]
template("linalg.inv", "x", x="_sg.inv_adjoint(g, ans)",
         tangent={"x": "-(ans @ x_dot @ ans)"})
template("linalg.det", "x", x="_sg.det_adjoint(g, x, ans)",
         tangent={"x": "_sg.det_tangent(x_dot, x, ans)"})
template("linalg.solve", _B, x1="_sg.solve_adjoint_a(g, x1, x2, ans)",
         x2="_sg.solve_adjoint_b(g, x1, x2)",
         tangent={"x1": "-xp.linalg.solve(x1, x1_dot @ ans)",
                  "x2": "xp.linalg.solve(x1, x2_dot)"})
# The 2-norm only: a call that passes ``ord`` is refused (no parameter binds it).
template("linalg.vector_norm", "x, axis=None, keepdims=False",
         x="_sg.sum_adjoint(g / ans, x, axis, keepdims) * x",
         tangent={"x": "xp.sum(x * x_dot, axis=axis, keepdims=keepdims) / ans"})
