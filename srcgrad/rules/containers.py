"""Container methods on values being differentiated: ``d.values()``, ``d.items()``."""

from srcgrad import runtime
from srcgrad.rules.registry import defadjoint

defadjoint(runtime.dict_values, "d", d="_sg.dict_values_adjoint(g, d)",
           tangent={"d": "_sg.dict_values(d_dot)"})
defadjoint(runtime.dict_items, "d", d="_sg.dict_items_adjoint(g, d)")
