"""Rows for the helpers generated code uses to move derivatives between a call's
arguments and containers (``f(*xs)``, ``f(**kwargs)``, a tuple
result's tangents). Each is linear in the value it moves; its transpose is written with
helpers that are rows too (``srcgrad.runtime.structure_transposes``), so generated code
differentiated again never reads srcgrad's own source.
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defdispatched, deflinear, defnondiff

deflinear(rt.unpacked_part, "v, xs, start, after",
          "_sg.unpacked_part_transpose(g, v, start, after)", linear_in="v")
deflinear(rt.unpacked_part_transpose, "v, like, start, after",
          "_sg.unpacked_part(g, v, start, after)", linear_in="v")
deflinear(rt.item_tangents, "v, xs", "_sg.item_tangents_transpose(g, v)", linear_in="v")
deflinear(rt.item_tangents_transpose, "v, xs_dot", "_sg.item_tangents(g, v)", linear_in="v")
defadjoint(rt.joined_args, "head, xs, tail", tangent="linear",
           head="_sg.unpacked_part(g, head, 0, len(xs) + len(tail))",
           xs="_sg.unpacked_part(g, xs, len(head), len(tail))",
           tail="_sg.unpacked_part(g, tail, len(head) + len(xs), 0)")
deflinear(rt.keyword_part, "v, kwargs", "g", linear_in="v")
# {**named, **spread}: each side's cotangent is the merged one's at its keys
defadjoint(rt.merged_keywords, "named, spread", tangent="linear",
           named="_sg.keyword_part(g, named)", spread="_sg.keyword_part(g, spread)")
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

# ``for x in xs`` in forward mode iterates ``tangent_pairs(xs, xs_dot)``: linear in both
# together, its transpose picks each side's items out of the pairs' cotangents.
defadjoint(rt.tangent_pairs, "xs, xs_dot", tangent="linear",
           xs="_sg.pairs_cotangent(g, xs, 0)", xs_dot="_sg.pairs_cotangent(g, xs_dot, 1)")
deflinear(rt.pairs_cotangent, "v, like, position",
          "_sg.pairs_cotangent_transpose(g, position, len(like))", linear_in="v")
deflinear(rt.pairs_cotangent_transpose, "v, position, count",
          "_sg.pairs_cotangent(g, v, position)", linear_in="v")

# ``x.name``'s tangent in forward mode, ``field_tangent(x, x_dot, name)``: linear in
# ``x_dot`` (its transpose puts the cotangent at the field); through ``x`` it is zero
# for a field or a method, a property's second derivative (reverse mode over it refused).
defadjoint(rt.field_tangent, "obj, v, name", structured=True,
           v="_sg.field_tangent_transpose(g, name, obj)",
           obj="_sg.field_tangent_object_adjoint(g, obj, v, name)",
           tangent={"v": "_sg.field_tangent(obj, v_dot, name)",
                    "obj": "_sg.field_tangent_object_term(obj, v, name, obj_dot)"})
# (through obj: none for a field or a method; for a property, the reverse mode in obj of
# its getter's vjp of v, as add_attr's)
defadjoint(rt.field_tangent_transpose, "v, name, obj", structured=True,
           v="_sg.field_tangent(obj, g, name)",
           obj="_sg.property_object_adjoint(g, name, v, obj)",
           tangent={"v": "_sg.field_tangent_transpose(v_dot, name, obj)",
                    "obj": "_sg.property_curvature(_sg.zeros_like(ans), name, v, obj, "
                           "obj_dot)"})
# (a field's term is zeros; a property's is its second derivative: differentiated again
# it resolves when it runs, compiler.dispatch_properties, a property at every order)
defdispatched(rt.field_tangent_object_term, rt.field_tangent_object_adjoint)
defnondiff(rt.field_tangent_object_cotangent)
