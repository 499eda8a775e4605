"""Container methods on values being differentiated: ``d.values()``, ``d.items()``,
``d.get(key, default)``; ``getattr(obj, name)``."""

import builtins

from srcgrad import runtime
from srcgrad.rules.registry import defadjoint, deflinear

defadjoint(runtime.dict_values, "d", d="_sg.dict_values_adjoint(g, d)",
           tangent={"d": "_sg.dict_cotangent_values(d_dot, d)"})
defadjoint(runtime.dict_items, "d", d="_sg.dict_items_adjoint(g, d)",
           tangent={"d": "_sg.dict_cotangent_values(d_dot, d, True)"})
defadjoint(runtime.dict_get, "d, key, default=None",
           d="_sg.dict_get_adjoint(g, d, key)",
           default="_sg.dict_default_adjoint(g, d, key, default)",
           tangent={"d": "_sg.dict_get_tangent(d_dot, d, key)",
                    "default": "_sg.dict_default_tangent(default_dot, d, key)"})
# getattr(obj, name): a field of an object, as obj.name reads it (in reverse mode a
# property or a method read by getattr is refused when it runs). Generated gradients
# call it too (``_sg.field_cotangent`` of a dataclass cotangent), so hvp reaches it.
defadjoint(builtins.getattr, "object, name", object="_sg.attr_cotangent(g, name, object)",
           tangent={"object": "_sg.field_tangent(object, object_dot, name)"}
           ).constants["name"] = "an attribute's name, not a number"
deflinear(runtime.attr_cotangent, "v, name, obj=None", "_sg.item_adjoint(g, name, v)",
          linear_in="v")
# A field's cotangent picked out of its object's (a structure, or a sparse dict whose
# tangent may hold fewer keys: a missing one is zeros like the field).
deflinear(runtime.field_cotangent, "v, index, name, value",
          "_sg.field_cotangent_transpose(g, v, index, name)", linear_in="v")
deflinear(runtime.field_cotangent_transpose, "w, v, index, name",
          "_sg.field_keys_sum(g, v, index, name, w)", linear_in="w")
deflinear(runtime.field_keys_sum, "h, v, index, name, w",
          "_sg.field_cotangent_transpose(g, v, index, name)", linear_in="h")
