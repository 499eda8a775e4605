"""Rows for the adjoint helpers of linear and bilinear rows: an adjoint is linear in its
cotangent, and its transpose is the primal operation itself (``take_adjoint`` scatters,
``np.take`` gathers back); a product's adjoint is bilinear in the cotangent and the other
factor. Written in NumPy and helpers that are rows too, so a second or third derivative
through these rows never reads srcgrad's own source.

Before (a generated gradient)::          After (reverse mode over it)::

    da = _sg.take_adjoint(g, a, i, 0)        dg = np.take(dda, i, 0)
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint

# Each transpose gives the cotangent of ``v`` (shaped like the helper's cotangent
# argument) from ``g`` (shaped like the helper's result); the other arguments enter
# through their shapes, indices and flags only.
_TRANSPOSES = [
    (rt.diagonal_adjoint, "v, a, offset, axis1, axis2", "np.diagonal(g, offset, axis1, axis2)"),
    (rt.pad_adjoint, "v, array, pad_width, mode", "np.pad(g, pad_width, mode)"),
    (rt.take_adjoint, "v, a, indices, axis", "np.take(g, indices, axis)"),
    (rt.take_along_axis_adjoint, "v, arr, indices, axis", "np.take_along_axis(g, indices, axis)"),
    (rt.nansum_adjoint, "v, a, axis, keepdims",
     "np.sum(np.where(np.isnan(a), 0.0, g), axis=axis, keepdims=keepdims)"),
    (rt.nanmean_adjoint, "v, a, axis, keepdims",
     "np.sum(np.where(np.isnan(a), 0.0, g), axis=axis, keepdims=keepdims) / "
     "np.sum(np.logical_not(np.isnan(a)), axis=axis, keepdims=keepdims)"),
    (rt.rollaxis_adjoint, "v, a, axis, start", "np.rollaxis(g, axis, start)"),
    (rt.rot90_adjoint, "v, k, axes", "_sg.rot90_adjoint(g, -k, axes)"),
    (rt.dstack_adjoint, "v, tup", "np.dstack(_sg.pieces_like(g, tup))"),
    (rt.column_stack_adjoint, "v, tup", "np.column_stack(_sg.pieces_like(g, tup))"),
    (rt.pieces_like, "v, arrays", "_sg.pieces_unbroadcast(g, v)"),
    (rt.pieces_unbroadcast, "v, pieces", "_sg.pieces_like(g, v)"),
]
for _helper, _spec, _transpose in _TRANSPOSES:
    defadjoint(_helper, _spec, tangent="linear", v=_transpose)

# Adjoints of products (as ``dot_adjoint_a`` in ``runtime_rules``): bilinear in the
# cotangent ``v`` and the other factor; the transpose in ``v`` is the product itself, and
# the derivative in the other factor is the partner adjoint of the swapped cotangents.
for _helper, _other, _product, _partner in [
        (rt.tensordot_adjoint_a, "b", "np.tensordot(g, b, axes)",
         "_sg.tensordot_adjoint_b(v, g, b, axes)"),
        (rt.tensordot_adjoint_b, "a", "np.tensordot(a, g, axes)",
         "_sg.tensordot_adjoint_a(v, a, g, axes)")]:
    _call = f"_sg.{_helper.__name__}"
    defadjoint(_helper, "v, a, b, axes", v=_product, **{_other: _partner}, tangent={
        "v": f"{_call}(v_dot, a, b, axes)",
        _other: f"{_call}(v, {'a, b_dot' if _other == 'b' else 'a_dot, b'}, axes)",
        ("a" if _other == "b" else "b"): None})
for _helper, _other, _product, _partner in [
        (rt.kron_adjoint_a, "b", "np.kron(g, b)", "_sg.kron_adjoint_b(v, g, b)"),
        (rt.kron_adjoint_b, "a", "np.kron(a, g)", "_sg.kron_adjoint_a(v, a, g)")]:
    _call = f"_sg.{_helper.__name__}"
    defadjoint(_helper, "v, a, b", v=_product, **{_other: _partner}, tangent={
        "v": f"{_call}(v_dot, a, b)",
        _other: f"{_call}(v, {'a, b_dot' if _other == 'b' else 'a_dot, b'})",
        ("a" if _other == "b" else "b"): None})

# Transposes of transposes (reverse mode over reverse mode over generated code): the
# adjoint helper each one transposes.
defadjoint(rt.concatenate_adjoint_transpose, "v, arrays, axis", tangent="linear",
           v="_sg.concatenate_adjoint(g, arrays, axis)")
defadjoint(rt.array_adjoint_transpose, "v, w, obj", tangent="linear",
           v="_sg.array_adjoint(g, obj)")
# (``a`` and ``ans_`` choose the winners: piecewise constant, no derivative)
defadjoint(rt.max_adjoint_transpose, "v, a, ans_, axis, keepdims",
           v="_sg.max_adjoint(g, a, ans_, axis, keepdims)",
           tangent={"v": "_sg.max_adjoint_transpose(v_dot, a, ans_, axis, keepdims)",
                    "a": None, "ans_": None})
