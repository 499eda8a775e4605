"""Rows for the helpers of ``np.prod``'s derivatives (``runtime.adjoints.prod_adjoint``,
``prod_adjoint_tangent`` and ``runtime.prod_partials``): each is multilinear in its
cotangent and directions, and its partial in ``a`` is the next derivative of the product,
up to the third (a fourth is refused, a MissingRuleError naming ``a``). With ``H`` the
product's Hessian (symmetric), ``prod_adjoint_tangent(v, t) = v H t`` is its own
transpose in ``t``, and its transpose in ``v`` is ``D^2 prod[t, .]``:

    prod_adjoint(v, a)            = v D prod[e_i]             (the gradient)
    prod_tangent(t, a)            = D prod[t]                 (its transpose in v)
    prod_adjoint_tangent(v, t, a) = v D^2 prod[t, e_i]
    prod_second(t, e, a)          = D^2 prod[t, e]
    prod_adjoint_third(v, t, e, a) = v D^3 prod[t, e, e_i],   prod_third(t, e, f, a)

``ans_`` (the product itself, read by ``prod_adjoint`` for speed) carries no derivative of
its own: ``prod_adjoint``'s partial in ``a`` already holds all of it.
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint

_R = "axis, keepdims"


def _call(name, *args):
    return f"_sg.{name}({', '.join(args)}, {_R})"


_PRODUCT = "np.prod(a, axis=axis, keepdims=keepdims)"
defadjoint(rt.prod_adjoint, f"v, a, ans_, {_R}",
           v=f"_sg.unbroadcast({_call('prod_tangent', 'g', 'a')}, v)",
           a=_call("prod_adjoint_tangent", "v", "g", "a"),
           tangent={"v": _call("prod_adjoint", "v_dot", "a", "ans_"),
                    "a": _call("prod_adjoint_tangent", "v", "a_dot", "a"), "ans_": None})
defadjoint(rt.prod_tangent, f"t, a, {_R}",
           t=f"_sg.unbroadcast({_call('prod_adjoint', 'g', 'a', _PRODUCT)}, t)",
           a=_call("prod_adjoint_tangent", "g", "t", "a"),
           tangent={"t": _call("prod_tangent", "t_dot", "a"),
                    "a": _call("prod_second", "t", "a_dot", "a")})
defadjoint(rt.prod_adjoint_tangent, f"v, t, a, {_R}",
           v=f"_sg.unbroadcast({_call('prod_second', 't', 'g', 'a')}, v)",
           t=f"_sg.unbroadcast({_call('prod_adjoint_tangent', 'v', 'g', 'a')}, t)",
           a=_call("prod_adjoint_third", "v", "t", "g", "a"),
           tangent={"v": _call("prod_adjoint_tangent", "v_dot", "t", "a"),
                    "t": _call("prod_adjoint_tangent", "v", "t_dot", "a"),
                    "a": _call("prod_adjoint_third", "v", "t", "a_dot", "a")})
defadjoint(rt.prod_second, f"t, e, a, {_R}",
           t=f"_sg.unbroadcast({_call('prod_adjoint_tangent', 'g', 'e', 'a')}, t)",
           e=f"_sg.unbroadcast({_call('prod_adjoint_tangent', 'g', 't', 'a')}, e)",
           a=_call("prod_adjoint_third", "g", "t", "e", "a"),
           tangent={"t": _call("prod_second", "t_dot", "e", "a"),
                    "e": _call("prod_second", "t", "e_dot", "a"),
                    "a": _call("prod_third", "t", "e", "a_dot", "a")})
defadjoint(rt.prod_third, f"t, e, f, a, {_R}", refuses=("a",),
           t=f"_sg.unbroadcast({_call('prod_adjoint_third', 'g', 'e', 'f', 'a')}, t)",
           e=f"_sg.unbroadcast({_call('prod_adjoint_third', 'g', 't', 'f', 'a')}, e)",
           f=f"_sg.unbroadcast({_call('prod_adjoint_third', 'g', 't', 'e', 'a')}, f)",
           tangent={"t": _call("prod_third", "t_dot", "e", "f", "a"),
                    "e": _call("prod_third", "t", "e_dot", "f", "a"),
                    "f": _call("prod_third", "t", "e", "f_dot", "a")})
defadjoint(rt.prod_adjoint_third, f"v, t, e, a, {_R}", refuses=("a",),
           v=f"_sg.unbroadcast({_call('prod_third', 't', 'e', 'g', 'a')}, v)",
           t=f"_sg.unbroadcast({_call('prod_adjoint_third', 'v', 'g', 'e', 'a')}, t)",
           e=f"_sg.unbroadcast({_call('prod_adjoint_third', 'v', 't', 'g', 'a')}, e)",
           tangent={"v": _call("prod_adjoint_third", "v_dot", "t", "e", "a"),
                    "t": _call("prod_adjoint_third", "v", "t_dot", "e", "a"),
                    "e": _call("prod_adjoint_third", "v", "t", "e_dot", "a")})
