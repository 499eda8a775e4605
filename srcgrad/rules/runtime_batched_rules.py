"""Rows for the helpers of batched forward mode (``runtime.batched``), so that the
runtime stays closed under differentiation. The batched code serves ``sg.jacobian`` /
``sg.jacfwd`` and is never handed to the modes again (a Jacobian that is differentiated
dispatches to the one-direction ``jvp``); should it be, the helpers that carry a tangent
refuse (a MissingRuleError naming them), never a silent zero. The number of directions,
an index adjusted for them and the zero tangents carry no derivative."""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defnondiff

defnondiff(rt.batch_size, rt.batch_index, rt.batch_zeros)

defadjoint(rt.lift, "x", refuses=("x",))
defadjoint(rt.batch_broadcast, "tangent, ans", refuses=("tangent",))
defadjoint(rt.batch_reduce, "fn, tangent, axis=None, keepdims=False", refuses=("tangent",))
defadjoint(rt.batch_reshape, "tangent, *shape", refuses=("tangent",))
defadjoint(rt.batch_transpose, "tangent", refuses=("tangent",))
defadjoint(rt.batch_roll, "tangent, shift, axis=None", refuses=("tangent",))
defadjoint(rt.batch_join, "fn, tangents, axis=0", refuses=("tangents",))
defadjoint(rt.batch_matmul, "fn, a, b, tangent_first", refuses=("a", "b"))
defadjoint(rt.batch_outer, "a, b, tangent_first", refuses=("a", "b"))
defadjoint(rt.map_columns, "fn, *tangents", refuses=("tangents",))
defadjoint(rt.batched_dynamic_jvp, "fn, owner_dot, args, arg_dots",
           refuses=("owner_dot", "args", "arg_dots"))

# Batched reverse mode (``runtime.batched_reverse``): the same, for its backward sweep,
# which serves ``sg.jacobian`` / ``sg.jacrev`` and is never differentiated again.
defnondiff(rt.batch_rows, rt.batch_zeros_like, rt.batch_slots_like, rt.batch_wrt_zeros)
defadjoint(rt.lifted, "x", refuses=("x",))
defadjoint(rt.batch_unbroadcast, "g, x", refuses=("g",))
defadjoint(rt.batch_expand_summed, "g, a, axis, keepdims", refuses=("g",))
defadjoint(rt.batch_spread_to, "value, a", refuses=("value",))
defadjoint(rt.batch_dense, "d, x, rows", refuses=("d",))
defadjoint(rt.batch_add_at, "dx, index, g", refuses=("dx", "g"))
defadjoint(rt.batch_clear_item, "dx, index", refuses=("dx",))
defadjoint(rt.batch_restructure, "dx, x, rows", refuses=("dx",))
defadjoint(rt.batch_cross, "a, b", refuses=("a", "b"))
defadjoint(rt.batch_dot_adjoint_a, "g, a, b", refuses=("g",))
defadjoint(rt.batch_dot_adjoint_b, "g, a, b", refuses=("g",))
defadjoint(rt.map_rows, "fn, *cotangents", refuses=("cotangents",))
defadjoint(rt.batch_matmul_adjoint_a, "g, a, b", refuses=("g",))
defadjoint(rt.batch_matmul_adjoint_b, "g, a, b", refuses=("g",))
defadjoint(rt.batch_get_item, "dx, index, value, rows", refuses=("dx",))
defadjoint(rt.batch_concatenate_adjoint, "g, arrays, axis", refuses=("g",))
defadjoint(rt.batch_array_adjoint, "g, obj", refuses=("g",))
defadjoint(rt.batch_cast_adjoint, "g, a, dtype, rows", refuses=("g",))
defadjoint(rt.batch_sum_adjoint, "g, a, axis, keepdims", refuses=("g",))
defadjoint(rt.batch_reshape_rows, "g, shape", refuses=("g",))
defadjoint(rt.batch_dynamic_backward, "saved, g", refuses=("g",))
defadjoint(rt.batch_callee_backward, "fn, saved, g", refuses=("g",))
