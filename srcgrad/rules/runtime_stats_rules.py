"""Rows for the adjoint and tangent helpers of ``var``/``std``, ``cumprod``, ``softmax``,
``log_softmax`` and ``logsumexp`` (``srcgrad.runtime.stats_adjoints``,
``special_adjoints``). Each adjoint is linear in its cotangent, with the matching
tangent helper as its transpose; its partials in the primal's input and result are
written with those helpers, NumPy and ``_sg.sum_adjoint`` (``E(x)``: a reduced value
spread back over the reduced axes).

``var_adjoint(g, a) = 2 E(g) conj(a - mean(a)) / (N - ddof)`` is linear in ``g`` and
conjugate-linear in ``a``; its cotangent in ``a`` is the same map applied to
``E(v) * g`` (with a unit cotangent), written ``var_adjoint(1, E(v) * g)``.
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint

_M = "axis, ddof, keepdims"


def _spread(x):
    return f"_sg.sum_adjoint({x}, a, axis, keepdims)"


def _centered_adjoint(x, like):
    """The cotangent ``a`` gets through ``conj(a - mean(a))`` scaled by ``x``."""
    return f"_sg.var_adjoint(np.ones_like({like}), {x}, {_M})"


defadjoint(rt.var_adjoint, f"v, a, {_M}",
           v=f"_sg.var_tangent(g, a, {_M})",
           a=_centered_adjoint(f"g * {_spread('v')}", "v"),
           tangent={"v": f"_sg.var_adjoint(v_dot, a, {_M})",
                    "a": f"_sg.var_adjoint(v, a_dot, {_M})"})
defadjoint(rt.var_tangent, f"t, a, {_M}",
           t=f"_sg.var_adjoint(g, a, {_M})",
           a=_centered_adjoint(f"t * {_spread('g')}", "g"),
           tangent={"t": f"_sg.var_tangent(t_dot, a, {_M})",
                    "a": f"_sg.var_tangent(t, a_dot, {_M})"})
# std_adjoint(v, a, s) = var_adjoint(v / (2 s), a) (0 where s = 0).
_HALF = "_sg.safe_ratio(v, 2 * ans_)"
defadjoint(rt.std_adjoint, f"v, a, ans_, {_M}",
           v=f"_sg.safe_ratio(_sg.var_tangent(g, a, {_M}), 2 * ans_)",
           a=_centered_adjoint(f"g * {_spread(_HALF)}", "v"),
           ans_=f"-_sg.safe_ratio(v * _sg.var_tangent(g, a, {_M}), 2 * ans_ * ans_)",
           tangent={"v": f"_sg.std_adjoint(v_dot, a, ans_, {_M})",
                    "a": f"_sg.std_adjoint(v, a_dot, ans_, {_M})",
                    "ans_": f"_sg.std_adjoint(-_sg.safe_ratio(v * ans__dot, ans_), a, ans_, "
                            f"{_M})"})

# cumprod: its derivatives up to the third and their adjoints, exact at zeros
# (``srcgrad.runtime.moment_partials``); each is linear in every direction and the
# cotangent, and symmetric in the directions. ``ans_`` is cumprod(a) itself: read by the
# first-order helpers for speed only, it carries no partial of its own.
_C = "_sg.cumprod_{}({}, a, axis)"
defadjoint(rt.cumprod_adjoint, "v, a, ans_, axis",
           v="_sg.cumprod_tangent(g, a, ans_, axis)", a=_C.format("adjoint2", "v, g"),
           tangent={"v": "_sg.cumprod_adjoint(v_dot, a, ans_, axis)",
                    "a": _C.format("adjoint2", "v, a_dot"), "ans_": None})
defadjoint(rt.cumprod_tangent, "t, a, ans_, axis",
           t="_sg.unbroadcast(_sg.cumprod_adjoint(g, a, ans_, axis), t)",
           a=_C.format("adjoint2", "g, t"),
           tangent={"t": "_sg.cumprod_tangent(t_dot, a, ans_, axis)",
                    "a": _C.format("second", "t, a_dot"), "ans_": None})
defadjoint(rt.cumprod_second, "t, e, a, axis",
           t=_C.format("adjoint2", "g, e"), e=_C.format("adjoint2", "g, t"),
           a=_C.format("adjoint3", "g, t, e"),
           tangent={"t": _C.format("second", "t_dot, e"), "e": _C.format("second", "t, e_dot"),
                    "a": _C.format("third", "t, e, a_dot")})
defadjoint(rt.cumprod_adjoint2, "v, t, a, axis",
           v=_C.format("second", "t, g"), t=_C.format("adjoint2", "v, g"),
           a=_C.format("adjoint3", "v, t, g"),
           tangent={"v": _C.format("adjoint2", "v_dot, t"),
                    "t": _C.format("adjoint2", "v, t_dot"),
                    "a": _C.format("adjoint3", "v, t, a_dot")})
# (a fourth derivative is refused: a MissingRuleError naming ``a``)
defadjoint(rt.cumprod_third, "t, e, f, a, axis", refuses=("a",),
           t=_C.format("adjoint3", "g, e, f"), e=_C.format("adjoint3", "g, t, f"),
           f=_C.format("adjoint3", "g, t, e"),
           tangent={"t": _C.format("third", "t_dot, e, f"), "e": _C.format("third", "t, e_dot, f"),
                    "f": _C.format("third", "t, e, f_dot")})
defadjoint(rt.cumprod_adjoint3, "v, t, e, a, axis", refuses=("a",),
           v=_C.format("third", "t, e, g"), t=_C.format("adjoint3", "v, g, e"),
           e=_C.format("adjoint3", "v, t, g"),
           tangent={"v": _C.format("adjoint3", "v_dot, t, e"),
                    "t": _C.format("adjoint3", "v, t_dot, e"),
                    "e": _C.format("adjoint3", "v, t, e_dot")})

# softmax_adjoint(v, s) = s (v - sum(v s)): symmetric in v, bilinear in (v, s).
_SUM = "np.sum({}, axis=axis, keepdims=True)"
defadjoint(rt.softmax_adjoint, "v, ans_, axis",
           v="_sg.softmax_adjoint(g, ans_, axis)",
           ans_=f"g * (v - {_SUM.format('v * ans_')}) - v * {_SUM.format('g * ans_')}",
           tangent={"v": "_sg.softmax_adjoint(v_dot, ans_, axis)",
                    "ans_": f"ans__dot * (v - {_SUM.format('v * ans_')}) - ans_ * "
                            f"{_SUM.format('v * ans__dot')}"})
# log_softmax_adjoint(v, l) = v - exp(l) sum(v); log_softmax_tangent its transpose.
defadjoint(rt.log_softmax_adjoint, "v, ans_, axis",
           v="_sg.log_softmax_tangent(g, ans_, axis)",
           ans_=f"-g * np.exp(ans_) * {_SUM.format('v')}",
           tangent={"v": "_sg.log_softmax_adjoint(v_dot, ans_, axis)",
                    "ans_": f"-np.exp(ans_) * ans__dot * {_SUM.format('v')}"})
defadjoint(rt.log_softmax_tangent, "t, ans_, axis",
           t="_sg.log_softmax_adjoint(g, ans_, axis)",
           ans_=f"-np.exp(ans_) * t * {_SUM.format('g')}",
           tangent={"t": "_sg.log_softmax_tangent(t_dot, ans_, axis)",
                    "ans_": f"-{_SUM.format('np.exp(ans_) * ans__dot * t')}"})

# logsumexp: with w = exp(a - E(ans)) (times b), the adjoint is E(v) w and the tangent
# sum(t w); each is the other's transpose, and every partial is one of them again.
_L = "axis, keepdims"
_ADJ = f"_sg.logsumexp_adjoint({{}}, a, ans_, {_L}, b)"
_ADJ_B = f"_sg.logsumexp_adjoint_b({{}}, a, ans_, {_L}, b)"
_TAN = f"_sg.logsumexp_tangent({{}}, a, ans_, {_L}, {{}})"
_RED = f"np.sum({{}}, {_L.replace('keepdims', 'keepdims=keepdims')})"
defadjoint(rt.logsumexp_adjoint, f"v, a, ans_, {_L}, b",
           v=_TAN.format("g", "b"), a="g * " + _ADJ.format("v"),
           ans_="-" + _RED.format("g * " + _ADJ.format("v")),
           b="_sg.unbroadcast(g * " + _ADJ_B.format("v") + ", b)",
           tangent={"v": _ADJ.format("v_dot"), "a": _ADJ.format("v") + " * a_dot",
                    "ans_": f"-{_ADJ.format('v')} * {_spread('ans__dot')}",
                    "b": _ADJ_B.format("v") + " * b_dot"})
defadjoint(rt.logsumexp_adjoint_b, f"v, a, ans_, {_L}, b",
           v=_TAN.format("g", "None"), a="g * " + _ADJ_B.format("v"),
           ans_="-" + _RED.format("g * " + _ADJ_B.format("v")),
           tangent={"v": _ADJ_B.format("v_dot"), "a": _ADJ_B.format("v") + " * a_dot",
                    "ans_": f"-{_ADJ_B.format('v')} * {_spread('ans__dot')}"})
defadjoint(rt.logsumexp_tangent, f"t, a, ans_, {_L}, b",
           t=_ADJ.format("g"), a="t * " + _ADJ.format("g"),
           ans_="-g * " + _TAN.format("t", "b"),
           b="_sg.unbroadcast(t * " + _ADJ_B.format("g") + ", b)",
           tangent={"t": _TAN.format("t_dot", "b"), "a": _TAN.format("t * a_dot", "b"),
                    "ans_": "-" + _TAN.format("t", "b") + " * ans__dot",
                    "b": _TAN.format("t", "b_dot")})
