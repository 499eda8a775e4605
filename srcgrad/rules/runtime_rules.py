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

import builtins

from srcgrad import runtime as rt
from srcgrad.rules.registry import (
    defadjoint,
    defdispatched,
    defelementwise,
    definplace,
    deflinear,
    defnondiff,
)

defnondiff(rt.zeros_like, rt.slots_like, rt.seed, rt.sign, rt.balanced_eq, rt.clip_mask,
           rt.inverse_axes, rt.clip_bound_partial, rt.zeros_like_structure, rt.all_scalars,
           rt.read_constant, rt.constant_value, rt.ones_seed, rt.zip_length,
           rt.check_array_types, rt.check_array_attribute, rt.dense_basis, rt.dense_shape,
           rt.check_unshared, rt.updates_in_place, rt.escaped, rt.escape_count,
           rt.refuse_if_escaped, rt.refuse_read_back, rt.is_view_of, rt.lone_slot,
           rt.is_duck_array, rt.without_derivative, rt.wrt_zeros, rt.check_wrt,
           rt.refuse_changed_defaults, rt.checked_namespace, rt.reduced_count)
defnondiff(rt.require_dict)   # d.update(...) / d.setdefault(...) lowered to item writes
defnondiff(rt.insert_position, rt.require_list)   # xs.insert(i, v), del xs[i] on lists
defnondiff(rt.require_list_or_dict, rt.deleted_positions)   # del xs[i], del xs[i:j]

# Shapes, copies and accumulation (linear in the value they move).
deflinear(rt.unbroadcast, "v, x", "_sg.broadcast_like(g, v)", linear_in="v")
deflinear(rt.broadcast_like, "v, x", "_sg.unbroadcast(g, v)", linear_in="v")
# (the real part for a real operand: its transpose passes a real g on unchanged)
deflinear(rt.match_real, "v, x", "g", linear_in="v")
deflinear(rt.broadcast_tangent, "v, ans_", "_sg.unbroadcast(g, v)", linear_in="v")
deflinear(rt.snapshot, "v", "_sg.cotangent_part(g, v, ans)", linear_in="v")
deflinear(rt.private_saves, "v, written", "g", linear_in="v")   # copies of residuals
# ``v`` itself, or its shape and dtype only (a large array the sweep keeps for its shape:
# every later use of the name reads no more than that, see ``optimize.release``).
deflinear(rt.shape_of, "v", "g", linear_in="v")
deflinear(rt.as_array, "v, dtype=None", "_sg.array_adjoint(g, v)", linear_in="v")
deflinear(rt.private_copy, "v, others=(), line=None", "g", linear_in="v")
deflinear(builtins.list, "v", "_sg.list_adjoint(g, v)", linear_in="v")  # copies of stacks
deflinear(builtins.tuple, "v", "_sg.tuple_adjoint(g, v)", linear_in="v")
deflinear(rt.readonly, "v, call", "g", linear_in="v")   # a read-only view of what it is given
deflinear(rt.finish, "v, primal", "g", linear_in="v")
deflinear(rt.in_dtype_of, "v, value", "_sg.in_dtype_of(g, v)", linear_in="v")   # a cast
deflinear(rt.tangent_in_dtype_of, "v, value", "_sg.in_dtype_of(g, v)", linear_in="v")
# (an item is an array, a number, or a container: a slice of a tuple's cotangent)
deflinear(rt.item_adjoint, "v, index, value",
          "_sg.added_at(_sg.zeros_like(v), index, _sg.match_real(_sg.restructure(g, v[index]), "
          "v[index]))", linear_in="v")
defadjoint(rt.added_at, "v, index, item", tangent="linear", v="g",
           item="_sg.unbroadcast(g[index], item)")
# (each term's cotangent in its own form: see runtime.slots)
defadjoint(rt.add_cotangents, "a, b", tangent="linear", a="_sg.cotangent_part(g, a, ans)",
           b="_sg.cotangent_part(g, b, ans)")
# (its tangent adds the tangents as new values: they are not proven unshared)
defadjoint(rt.add_into, "a, b", tangent="linear", a="_sg.cotangent_part(g, a, ans)",
           b="_sg.cotangent_part(g, b, ans)").tangent_call = \
    "_sg.add_cotangents"
deflinear(rt.get_item, "v, index, value", "_sg.added_at(_sg.zeros_like(v), index, g)",
          linear_in="v")
# (a NamedTuple's sparse cotangent adds a field's name and position keys; a dict's
# cotangent is per key: the transpose gives each key its field's whole cotangent)
deflinear(rt.restructure, "v, x", "_sg.restructure_transpose(g, v, x)", linear_in="v")
deflinear(rt.restructure_transpose, "w, v, x",
          "_sg.restructure_transpose(_sg.at_keys_of(g, v), w, x)", linear_in="w")
deflinear(rt.at_keys_of, "w, v", "_sg.at_keys_of(g, v)", linear_in="w")
deflinear(rt.dense, "v, x", "g", linear_in="v")
deflinear(rt.cotangent_part, "v, a, total", "_sg.cotangent_embedded(g, a, total)",
          linear_in="v")
deflinear(rt.cotangent_embedded, "v, a, total", "_sg.cotangent_part(g, a, total)",
          linear_in="v")
deflinear(rt.dict_values_adjoint, "v, d", "_sg.dict_cotangent_values(g, d)", linear_in="v")
deflinear(rt.dict_items_adjoint, "v, d", "_sg.dict_cotangent_values(g, d, True)",
          linear_in="v")
deflinear(rt.dict_cotangent_values, "v, d, pairs=False",
          "_sg.dict_items_adjoint(g, d) if pairs else _sg.dict_values_adjoint(g, d)",
          linear_in="v")
deflinear(rt.dict_get_adjoint, "v, d, key", "_sg.dict_get_tangent(g, d, key)", linear_in="v")
deflinear(rt.dict_get_tangent, "v, d, key", "_sg.dict_get_adjoint(g, d, key)", linear_in="v")
deflinear(rt.dict_default_adjoint, "v, d, key, default", "_sg.dict_default_tangent(g, d, key)",
          linear_in="v")
deflinear(rt.dict_default_tangent, "v, d, key", "_sg.dict_default_tangent(g, d, key)",
          linear_in="v")
deflinear(rt.cast_adjoint, "v, a, dtype", "_sg.cast_adjoint_transpose(g, v, a, dtype)",
          linear_in="v")
deflinear(rt.cast_adjoint_transpose, "v, w, a, dtype", "_sg.cast_adjoint(g, a, dtype)",
          linear_in="v")
deflinear(rt.cast_tangent, "v, dtype, copy", "_sg.cast_tangent(g, dtype, copy)", linear_in="v")
defnondiff(rt.truncates, rt.is_own_method)
# the cotangent of ``item`` in ``add_attr``: the field's or a bound method's receiver's
# (linear in v; constant in obj), or a property getter's jvp along v; differentiated
# again it resolves when it runs (compiler.dispatch_properties): a property's getter is
# differentiated once more, a field's is ``field_item_adjoint``, these rows
defdispatched(rt.attr_item_adjoint)
defadjoint(rt.field_item_adjoint, "v, name, item, obj=None",
           v="_sg.add_attr(_sg.zeros_like(v), name, g, obj)",
           obj="_sg.property_free(obj, name, _sg.zeros_like(obj))",
           tangent={"v": "_sg.field_item_adjoint(v_dot, name, item, obj)",
                    "obj": "_sg.zeros_like(_sg.property_free(obj, name, item, obj_dot))"})
deflinear(rt.stored_derivative, "v, x", "_sg.stored_derivative(g, x)", linear_in="v")
deflinear(rt.sum_part, "v, left, right, which",
          "_sg.sum_part_adjoint(g, v, left, right, which)", linear_in="v")
deflinear(rt.sum_part_adjoint, "v, w, left, right, which",
          "_sg.sum_part(g, left, right, which)", linear_in="v")
deflinear(rt.concat_part, "v, left, right, which",
          "_sg.concat_part_adjoint(g, v, left, right, which)", linear_in="v")
defadjoint(rt.concat_tangents, "left, right", tangent="linear",
           left="_sg.concat_part(g, left, right, 0)", right="_sg.concat_part(g, left, right, 1)")
deflinear(rt.concat_part_adjoint, "v, w, left, right, which",
          "_sg.concat_part(g, left, right, which)", linear_in="v")
deflinear(rt.saved_item, "v, index", "_sg.saved_item_adjoint(g, v, index)", linear_in="v")

# In-place helpers, differentiated as the functional updates they are (``g``: the
# updated argument's cotangent after the call; see ``definplace``).
definplace(rt.add_at, "v, index, item", ("v", "item"),          # v[index] += item
           item="_sg.item_adjoint(g, index, item)")
# v[name] += item; with ``obj`` a property's getter is differentiated, whose second
# derivative in ``obj`` forward mode adds when ``obj`` carries a tangent (the tangent of
# the getter's vjp, property_curvature) and reverse mode gives obj (the reverse mode of
# the getter's vjp, property_object_adjoint)
definplace(rt.add_attr, "v, name, item, obj=None", ("v", "item"),
           item="_sg.attr_item_adjoint(g, name, item, obj)",
           obj="_sg.property_object_adjoint(g, name, item, obj)",
           tangent_guard=("obj", "v_dot = _sg.property_curvature(v_dot, name, item, obj, "
                                 "obj_dot)"))
defnondiff(rt.refuse_property_tangent)
# obj's cotangent through add_attr (zeros for a field or a method; a property's
# getter's vjp differentiated in reverse mode) and the term property_curvature adds (the
# getter's second derivative; nothing for a field or a method) resolve when they run once
# differentiated again (compiler.dispatch_properties): a property at every order
defdispatched(rt.property_object_adjoint, rt.property_curvature)
# (``along``: the tangent a zero term stands for, named so the term is not scaled by it)
deflinear(rt.property_free, "obj, name, v, along=None", "_sg.property_free(obj, name, g)",
          linear_in="v")
definplace(rt.clear_item, "v, index", ("v",), update="_sg.clear_item(g, index)",
           saves="index")                                        # v[index] = 0
definplace(rt.restore_item, "v, index, item", ("v", "item"), saves="index",
           item="_sg.item_adjoint(g, index, item)",              # v[index] = item
           update="_sg.clear_item(g, index)")
definplace(rt.pop_last, "v, count=None", ("v",), resizes=True,   # v.pop() / del v[-count:]
           update="_sg.unpop(g, g_ans, count)")
definplace(rt.unpop, "v, item, count=None", ("v", "item"), resizes=True,   # v.append(item)
           item="_sg.last_items(g, count)", update="_sg.pop_last(g, count)")
definplace(rt.unpop_at, "v, index, item", ("v", "item"), resizes=True,  # v.insert(index, item)
           item="_sg.inserted_item(g, index)", update="_sg.remove_inserted(g, index)")
definplace(rt.remove_inserted, "v, index", ("v",), resizes=True,   # del v[index]
           update="_sg.unpop_at(g, index, None)")
deflinear(rt.last_items, "v, count=None",
          "_sg.placed_at(g, v, None if count is None else slice(len(v) - count, None))",
          linear_in="v")
deflinear(rt.inserted_item, "v, index", "_sg.placed_at(g, v, index if index >= 0 or "
          "type(v) is dict else index + len(v))", linear_in="v")

# Adjoints of reductions and shape functions: linear in the incoming cotangent.
deflinear(rt.sum_adjoint, "v, a, axis, keepdims", "np.sum(g, axis=axis, keepdims=keepdims)",
          linear_in="v")
deflinear(rt.expand_summed, "v, a, axis, keepdims", "np.sum(g, axis=axis, keepdims=keepdims)",
          linear_in="v")
deflinear(rt.spread_to, "v, a", "_sg.unbroadcast(g, v)", linear_in="v")
deflinear(rt.mean_adjoint, "v, a, axis, keepdims", "np.mean(g, axis=axis, keepdims=keepdims)",
          linear_in="v")
defadjoint(rt.max_adjoint, "v, a, ans_, axis, keepdims",
           v="_sg.max_adjoint_transpose(g, a, ans_, axis, keepdims)",
           tangent={"v": "_sg.max_adjoint(v_dot, a, ans_, axis, keepdims)", "a": None,
                    "ans_": None})
# The partials of einsum's full contraction (``runtime.einsum_partials``): linear in each
# value slot; the transpose in ``x_j`` is the partial in slot ``j``, with ``g`` in its place.
# (structured: tangent terms add with ``add_tangents``, as the partial in a slot holding a
# sublist is None, a zero not built.)
_PARTIAL_SLOTS = tuple(f"x{j}" for j in range(1, 9))


def _einsum_partial(spec, replaced=None, by=None):
    slots = (by if s == replaced else s for s in _PARTIAL_SLOTS)
    return f"_sg.einsum_partial({spec}, {', '.join(slots)})"


defadjoint(rt.einsum_partial, "spec, " + ", ".join(f"{s}=None" for s in _PARTIAL_SLOTS),
           **{s: _einsum_partial(f"_sg.einsum_swap(spec, {j})", s, "g")
              for j, s in enumerate(_PARTIAL_SLOTS, 1)},
           tangent={s: _einsum_partial("spec", s, f"{s}_dot") for s in _PARTIAL_SLOTS},
           structured=True)
defnondiff(rt.einsum_spec, rt.einsum_swap)

# ``super(cls, obj).name``: a method bound to ``obj``, carrying ``obj``'s derivative as
# ``obj.name`` does (a bound method's tangent and cotangent are its object's).
defadjoint(rt.super_function, "cls, v, name", v="g", tangent={"v": "v_dot"})

# Sorting's helpers move values by a permutation of ``a``, locally constant in ``a``: each
# is linear in its first argument, and its transpose is the other.
defadjoint(rt.sort_adjoint, "v, a, axis", v="_sg.sort_tangent(g, a, axis)",
           tangent={"v": "_sg.sort_adjoint(v_dot, a, axis)", "a": None})
defadjoint(rt.sort_tangent, "v, a, axis", v="_sg.sort_adjoint(g, a, axis)",
           tangent={"v": "_sg.sort_tangent(v_dot, a, axis)", "a": None})
# ``a + b`` / ``a - b`` written into a dead operand (``buffer``, ``a`` or ``b`` itself):
# linear, and the buffer's own value carries no derivative of its own.
defelementwise(rt.sum_into, None, "1", "1", params=("buffer", "x", "y"))
defelementwise(rt.difference_into, None, "1", "-1", params=("buffer", "x", "y"))
# ``unbroadcast(a * b, x)`` in one pass: bilinear in the factors.
defadjoint(rt.unbroadcast_product, "a, b, x",
           a="_sg.unbroadcast(_sg.broadcast_like(g, a * b) * b, a)",
           b="_sg.unbroadcast(_sg.broadcast_like(g, a * b) * a, b)",
           tangent={"a": "_sg.unbroadcast_product(a_dot, b, x)",
                    "b": "_sg.unbroadcast_product(a, b_dot, x)", "x": None})
deflinear(rt.sum_of_sequence_adjoint, "v, iterable",
          "_sg.sum_of_sequence_transpose(g, v, iterable)", linear_in="v")
deflinear(rt.sum_of_sequence_transpose, "v, w, iterable",
          "_sg.sum_of_sequence_adjoint(g, iterable)", linear_in="v")
# Each transpose below gives the cotangent of ``v`` (shaped like the helper's cotangent
# argument) from ``g`` (shaped like the helper's result).
_TRANSPOSES = [
    (rt.cumsum_adjoint, "v, a, axis", "np.cumsum(g, axis=axis)"),
    (rt.concatenate_adjoint, "v, arrays, axis",
     "_sg.concatenate_adjoint_transpose(g, arrays, axis)"),
    (rt.stack_adjoint, "v, arrays, axis", "np.stack(_sg.pieces_like(g, arrays), axis)"),
    (rt.hstack_adjoint, "v, tup", "np.hstack(_sg.pieces_like(g, tup))"),
    (rt.vstack_adjoint, "v, tup", "np.reshape(np.vstack(_sg.pieces_like(g, tup)), np.shape(v))"),
    (rt.array_adjoint, "v, obj", "_sg.array_adjoint_transpose(g, v, obj)"),
    (rt.trace_adjoint, "v, a, offset, axis1, axis2", "np.trace(g, offset, axis1, axis2)"),
    (rt.diag_adjoint, "v, a, k", "np.diag(g, k)"),
    (rt.tile_adjoint, "v, a, reps", "np.reshape(np.tile(g, reps), np.shape(v))"),
    (rt.repeat_adjoint, "v, a, repeats, axis", "np.repeat(g, repeats, axis)"),
]
for _helper, _spec, _transpose in _TRANSPOSES:
    defadjoint(_helper, _spec, tangent="linear", v=_transpose)

# Order statistics: linear in the cotangent (tangent), piecewise constant in ``a`` (its
# ranks), and each other's transpose.
_ORDER = "v, a, q, axis, keepdims, method='linear'"
defadjoint(rt.quantile_adjoint, _ORDER, tangent="linear",
           v="_sg.quantile_tangent(g, a, q, axis, keepdims, method)")
defadjoint(rt.quantile_tangent, _ORDER, tangent="linear",
           v="_sg.quantile_adjoint(g, a, q, axis, keepdims, method)")

# Adjoints of products: bilinear in the cotangent and the other factor. ``dot_adjoint_a``
# is the transpose of ``a -> np.dot(a, b)``, so its own transpose is that map, and its
# derivative in ``b`` is ``dot_adjoint_b`` of the swapped cotangents.
for _helper, _other, _product, _partner in [
        (rt.dot_adjoint_a, "b", "np.dot(g, b)", "_sg.dot_adjoint_b(v, g, b)"),
        (rt.dot_adjoint_b, "a", "np.dot(a, g)", "_sg.dot_adjoint_a(v, a, g)"),
        (rt.matmul_adjoint_a, "b", "np.matmul(g, b)", "_sg.matmul_adjoint_b(v, g, b)"),
        (rt.matmul_adjoint_b, "a", "np.matmul(a, g)", "_sg.matmul_adjoint_a(v, a, g)"),
        (rt.inner_adjoint_a, "b", "np.inner(g, b)", "_sg.inner_adjoint_b(v, g, b)"),
        (rt.inner_adjoint_b, "a", "np.inner(a, g)", "_sg.inner_adjoint_a(v, a, g)")]:
    _call = f"_sg.{_helper.__name__}"
    defadjoint(_helper, "v, a, b", v=_product, **{_other: _partner}, tangent={
        "v": f"{_call}(v_dot, a, b)",
        _other: f"{_call}(v, {'a, b_dot' if _other == 'b' else 'a_dot, b'})",
        ("a" if _other == "b" else "b"): None})

# Partials used by rule rows.
defelementwise(rt.power_exponent_partial, "_sg.safe_ratio(p, x)", "_sg.safe_log(x, p)",
               params=("x", "p"))

# np.select, np.gradient and the window views: adjoint and tangent helpers, each linear
# in its first argument and the other's transpose.
deflinear(rt.select_adjoint, "v, condlist, choicelist, which",
          "_sg.select_adjoint(g, condlist, choicelist, which)", linear_in="v")
deflinear(rt.select_choices_adjoint, "v, condlist, choicelist",
          "_sg.select_choices_tangent(g, condlist)", linear_in="v")
deflinear(rt.select_choices_tangent, "v, condlist", "_sg.select_choices_adjoint(g, condlist, v)",
          linear_in="v")
deflinear(rt.select_default_tangent, "v, condlist",
          "_sg.unbroadcast(_sg.select_default_tangent(g, condlist), v)", linear_in="v")
deflinear(rt.gradient_adjoint, "v, f, spacing, axis, edge_order",
          "_sg.gradient_tangent(g, f, spacing, axis, edge_order)", linear_in="v")
deflinear(rt.gradient_tangent, "v, f, spacing, axis, edge_order",
          "_sg.gradient_adjoint(g, f, spacing, axis, edge_order)", linear_in="v")
deflinear(rt.sliding_window_adjoint, "v, x, window_shape, axis=None",
          "_sg.sliding_window_tangent(g, x, window_shape, axis)", linear_in="v")
deflinear(rt.sliding_window_tangent, "v, x, window_shape, axis=None",
          "_sg.sliding_window_adjoint(g, x, window_shape, axis)", linear_in="v")
deflinear(rt.strided_adjoint, "v, x, shape, strides", "_sg.strided_tangent(g, x, shape, strides)",
          linear_in="v")
deflinear(rt.strided_tangent, "v, x, shape, strides", "_sg.strided_adjoint(g, x, shape, strides)",
          linear_in="v")
# Convolutions' adjoint helpers: bilinear (see runtime.convolution_adjoints).
defadjoint(rt.convolve_adjoint, "v, other, like, numpy_1d=False",
           v="_sg.convolve_part(g, other, v, numpy_1d)",
           other="_sg.convolve_adjoint(v, g, other, numpy_1d)",
           tangent={"v": "_sg.convolve_adjoint(v_dot, other, like, numpy_1d)",
                    "other": "_sg.convolve_adjoint(v, other_dot, like, numpy_1d)"})
defadjoint(rt.convolve_part, "h, other, like, numpy_1d=False",
           h="_sg.convolve_adjoint(g, other, h, numpy_1d)",
           other="_sg.convolve_adjoint(g, h, other, numpy_1d)",
           tangent={"h": "_sg.convolve_part(h_dot, other, like, numpy_1d)",
                    "other": "_sg.convolve_part(h, other_dot, like, numpy_1d)"})
defadjoint(rt.signal_convolve, "in1, in2, mode='full', method='auto'",
           in1="_sg.convolve_adjoint(g, in2, in1)", in2="_sg.convolve_adjoint(g, in1, in2)",
           tangent={"in1": "_sg.signal_convolve(in1_dot, in2, mode, method)",
                    "in2": "_sg.signal_convolve(in1, in2_dot, mode, method)"})
