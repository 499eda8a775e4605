"""Rows for the helpers of ``np.linalg.multi_dot``'s derivatives
(``runtime.multi_dot_terms``). With ``T_k(d_1..d_k) = D^k multi_dot(arrays)[d_1..d_k]``
(symmetric, multilinear in list directions) and ``C_k(v, d_1..d_k)`` its transpose in one
more direction (a list, one cotangent per array):

    multi_dot_tangent(d)          = T_1(d)        multi_dot_adjoint(v)             = C_0(v)
    multi_dot_second(d, e)        = T_2(d, e)     multi_dot_adjoint_tangent(v, d)  = C_1(v, d)
    multi_dot_third(d, e, f)      = T_3(d, e, f)  multi_dot_adjoint_second(v, d, e) = C_2(v, d, e)

Each one's transpose in a direction is ``C`` with that direction taken out (in ``v``:
``T`` with the cotangent put in); its derivative through ``arrays`` adds a direction. Third
derivatives close (the ``C`` rows return lists: their tangent terms add item by
item); a fourth through ``arrays`` is refused (a MissingRuleError naming it).
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint


def _t(*args):
    name = ("tangent", "second", "third")[len(args) - 1]
    return f"_sg.multi_dot_{name}({', '.join(args)}, arrays)"


def _c(v, *args):
    name = ("adjoint", "adjoint_tangent", "adjoint_second")[len(args)]
    return f"_sg.multi_dot_{name}({', '.join((v,) + args)}, arrays)"


def _unbroadcast(expr, like):
    return f"_sg.unbroadcast({expr}, {like})"


defadjoint(rt.multi_dot_tangent, "d, arrays", d=_c("g"), arrays=_c("g", "d"),
           tangent={"d": _t("d_dot"), "arrays": _t("d", "arrays_dot")})
defadjoint(rt.multi_dot_second, "d, e, arrays", d=_c("g", "e"), e=_c("g", "d"),
           arrays=_c("g", "d", "e"),
           tangent={"d": _t("d_dot", "e"), "e": _t("d", "e_dot"),
                    "arrays": _t("d", "e", "arrays_dot")})
defadjoint(rt.multi_dot_third, "d, e, f, arrays", refuses=("arrays",),
           d=_c("g", "e", "f"), e=_c("g", "d", "f"), f=_c("g", "d", "e"),
           tangent={"d": _t("d_dot", "e", "f"), "e": _t("d", "e_dot", "f"),
                    "f": _t("d", "e", "f_dot")})
defadjoint(rt.multi_dot_adjoint, "v, arrays", structured=True, v=_unbroadcast(_t("g"), "v"),
           arrays=_c("v", "g"),
           tangent={"v": _c("v_dot"), "arrays": _c("v", "arrays_dot")})
defadjoint(rt.multi_dot_adjoint_tangent, "v, d, arrays", structured=True,
           v=_unbroadcast(_t("d", "g"), "v"), d=_c("v", "g"), arrays=_c("v", "d", "g"),
           tangent={"v": _c("v_dot", "d"), "d": _c("v", "d_dot"),
                    "arrays": _c("v", "d", "arrays_dot")})
defadjoint(rt.multi_dot_adjoint_second, "v, d, e, arrays", structured=True, refuses=("arrays",),
           v=_unbroadcast(_t("d", "e", "g"), "v"), d=_c("v", "g", "e"), e=_c("v", "d", "g"),
           tangent={"v": _c("v_dot", "d", "e"), "d": _c("v", "d_dot", "e"),
                    "e": _c("v", "d", "e_dot")})
