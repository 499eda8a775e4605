"""Container methods on values being differentiated: ``d.values()``, ``d.items()``,
``d.get(key, default)``."""

from srcgrad import runtime
from srcgrad.rules.registry import defadjoint

defadjoint(runtime.dict_values, "d", d="_sg.dict_values_adjoint(g, d)",
           tangent={"d": "_sg.dict_cotangent_values(d_dot, d)"})
defadjoint(runtime.dict_items, "d", d="_sg.dict_items_adjoint(g, d)",
           tangent={"d": "_sg.dict_cotangent_values(d_dot, d, True)"})
defadjoint(runtime.dict_get, "d, key, default=None",
           d="_sg.dict_get_adjoint(g, d, key)",
           default="_sg.dict_default_adjoint(g, d, key, default)",
           tangent={"d": "_sg.dict_get_tangent(d_dot, d, key)",
                    "default": "_sg.dict_default_tangent(default_dot, d, key)"})
