"""Rows for the runtime helpers that generated code calls, so that generated code can be
differentiated again (``hvp`` is forward mode over a generated gradient, ``grad(grad(f))``
reverse mode over one).

Before: a generated gradient holds ``dx = _sg.unbroadcast(d_mul * w, x)``.
After (forward mode over it)::

    dx_dot = _sg.unbroadcast(d_mul_dot * w + w_dot * d_mul, x)   # linear in its first argument

Helpers whose value depends only on shapes or on piecewise-constant masks (``zeros_like``,
``seed``, ``balanced_eq``...) carry no derivative. A ``None`` tangent term states that
the derivative through that argument is zero almost everywhere (``max_adjoint``'s mask).
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defelementwise, deflinear, defnondiff

defnondiff(rt.zeros_like, rt.seed, rt.sign, rt.balanced_eq, rt.clip_mask, rt.inverse_axes,
           rt.zeros_like_structure, rt.all_scalars)

# Shapes, copies and accumulation (linear in the value they move).
deflinear(rt.unbroadcast, "v, x", "_sg.broadcast_like(g, v)", linear_in="v")
deflinear(rt.broadcast_like, "v, x", "_sg.unbroadcast(g, v)", linear_in="v")
deflinear(rt.broadcast_tangent, "v, ans_", "_sg.unbroadcast(g, v)", linear_in="v")
deflinear(rt.snapshot, "v", "g", linear_in="v")
deflinear(rt.finish, "v, primal", "g", linear_in="v")
deflinear(rt.item_adjoint, "v, index, value",
          "_sg.added_at(_sg.zeros_like(v), index, _sg.unbroadcast(g, v[index]))", linear_in="v")
deflinear(rt.sequence_item, "v, index, seq", "_sg.added_at(_sg.zeros_like(v), index, g)",
          linear_in="v")
_ADD_AT = {"v": "g", "item": "_sg.unbroadcast(g[index], item)"}
defadjoint(rt.added_at, "v, index, item", tangent="linear", **_ADD_AT)
defadjoint(rt.add_at, "v, index, item", tangent="linear", **_ADD_AT).inplace = True
defadjoint(rt.add_cotangents, "a, b", tangent="linear", a="g", b="g")
deflinear(rt.get_item, "v, index, value", "_sg.added_at(_sg.zeros_like(v), index, g)",
          linear_in="v")
deflinear(rt.restructure, "v, x", "g", linear_in="v")
deflinear(rt.saved_item, "v, index", "_sg.missing_transpose('saved_item')", linear_in="v")
# In-place helpers: the same call on the tangents mutates the tangent containers.
for _helper, _spec in [(rt.add_attr, "v, name, item"), (rt.restore_item, "v, index, item")]:
    defadjoint(_helper, _spec, tangent="linear", v="_sg.missing_transpose('in-place helper')",
               item="_sg.missing_transpose('in-place helper')").inplace = True
deflinear(rt.clear_item, "v, index", "_sg.missing_transpose('clear_item')",
          linear_in="v").inplace = True
deflinear(rt.pop_last, "v, count=None", "_sg.missing_transpose('pop_last')",
          linear_in="v").inplace = True

# Adjoints of reductions and shape functions: linear in the incoming cotangent.
deflinear(rt.sum_adjoint, "v, a, axis, keepdims", "np.sum(g, axis=axis, keepdims=keepdims)",
          linear_in="v")
deflinear(rt.mean_adjoint, "v, a, axis, keepdims", "np.mean(g, axis=axis, keepdims=keepdims)",
          linear_in="v")
defadjoint(rt.max_adjoint, "v, a, ans_, axis, keepdims",
           tangent={"v": "_sg.max_adjoint(v_dot, a, ans_, axis, keepdims)", "a": None,
                    "ans_": None})
defadjoint(rt.prod_adjoint, "v, a, ans_, axis, keepdims",
           tangent={"v": "_sg.prod_adjoint(v_dot, a, ans_, axis, keepdims)"})
deflinear(rt.sum_of_sequence_adjoint, "v, iterable", "np.sum(g)", linear_in="v")
for _helper, _spec in [(rt.cumsum_adjoint, "v, a, axis"),
                       (rt.concatenate_adjoint, "v, arrays, axis"),
                       (rt.stack_adjoint, "v, arrays, axis"), (rt.hstack_adjoint, "v, tup"),
                       (rt.vstack_adjoint, "v, tup"), (rt.array_adjoint, "v, obj"),
                       (rt.trace_adjoint, "v, a, offset, axis1, axis2"),
                       (rt.diag_adjoint, "v, a, k"), (rt.tile_adjoint, "v, a, reps"),
                       (rt.repeat_adjoint, "v, a, repeats, axis")]:
    defadjoint(_helper, _spec, tangent="linear", v=f"_sg.missing_transpose('{_helper.__name__}')")

# Adjoints of products: bilinear in the cotangent and the other factor.
for _helper, _other in [(rt.dot_adjoint_a, "b"), (rt.dot_adjoint_b, "a"),
                        (rt.matmul_adjoint_a, "b"), (rt.matmul_adjoint_b, "a"),
                        (rt.inner_adjoint_a, "b")]:
    _call = f"_sg.{_helper.__name__}"
    _missing = f"_sg.missing_transpose('{_helper.__name__}')"
    defadjoint(_helper, "v, a, b", v=_missing, **{_other: _missing}, tangent={
        "v": f"{_call}(v_dot, a, b)",
        _other: f"{_call}(v, {'a, b_dot' if _other == 'b' else 'a_dot, b'})",
        ("a" if _other == "b" else "b"): None})

# Partials used by rule rows.
defelementwise(rt.power_exponent_partial, "_sg.safe_ratio(p, x)", "_sg.safe_log(x)",
               params=("x", "p"))
