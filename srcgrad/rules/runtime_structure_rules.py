"""Rows for the helpers generated code uses to move derivatives between a call's
arguments and containers (``f(*xs)``, ``f(**kwargs)``, a tuple
result's tangents). Each is linear in the value it moves; its transpose is written with
helpers that are rows too (``srcgrad.runtime.structure_transposes``), so generated code
differentiated again never reads srcgrad's own source.
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, deflinear

deflinear(rt.unpacked_part, "v, xs, start, after",
          "_sg.unpacked_part_transpose(g, v, start, after)", linear_in="v")
deflinear(rt.unpacked_part_transpose, "v, like, start, after",
          "_sg.unpacked_part(g, v, start, after)", linear_in="v")
deflinear(rt.item_tangents, "v, xs", "_sg.item_tangents_transpose(g, v)", linear_in="v")
deflinear(rt.item_tangents_transpose, "v, xs_dot", "_sg.item_tangents(g, v)", linear_in="v")
deflinear(rt.keyword_part, "v, kwargs", "g", linear_in="v")
deflinear(rt.keyword_tangents, "v, kwargs", "_sg.dropped_nones(g)", linear_in="v")
deflinear(rt.dropped_nones, "v", "g", linear_in="v")
defadjoint(rt.add_tangents, "a, b", tangent="linear", a="g", b="g")

# Copies of stacks and the list reads of the backward sweep: linear, each the other's
# transpose (``list(g)``: a list cotangent's items, or an array cotangent's rows).
deflinear(rt.list_adjoint, "v, like", "list(g)", linear_in="v")
deflinear(rt.tuple_adjoint, "v, like", "list(g)", linear_in="v")
deflinear(rt.placed_at, "v, like, index", "_sg.placed_item(g, index)", linear_in="v")
deflinear(rt.placed_item, "v, index", "_sg.placed_at(g, v, index)", linear_in="v")
deflinear(rt.saved_item_adjoint, "v, like, index",
          "_sg.saved_item_adjoint_transpose(g, v, like, index)", linear_in="v")
deflinear(rt.saved_item_adjoint_transpose, "v, w, like, index",
          "_sg.saved_item_adjoint(g, like, index)", linear_in="v")
