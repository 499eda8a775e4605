"""Shape functions: reshapes, transposes, stacks and splits, all linear (their adjoint is
their transpose; their tangent is the same call on the tangent)."""

import numpy as np

from srcgrad.rules.registry import defadjoint, deflinear, defnondiff

_SAME_SHAPE = "np.reshape(g, np.shape(a))"
deflinear(np.reshape, "a, shape=None, order='C', newshape=None", _SAME_SHAPE, linear_in="a")
deflinear(np.ravel, "a, order='C'", _SAME_SHAPE, linear_in="a")
deflinear(np.expand_dims, "a, axis", _SAME_SHAPE, linear_in="a")
deflinear(np.squeeze, "a, axis=None", _SAME_SHAPE, linear_in="a")
for _atleast in (np.atleast_1d, np.atleast_2d, np.atleast_3d):
    deflinear(_atleast, "a", _SAME_SHAPE, linear_in="a")
deflinear(np.transpose, "a, axes=None", "np.transpose(g, _sg.inverse_axes(axes, np.ndim(a)))",
          linear_in="a")
deflinear(np.swapaxes, "a, axis1, axis2", "np.swapaxes(g, axis1, axis2)", linear_in="a")
deflinear(np.moveaxis, "a, source, destination", "np.moveaxis(g, destination, source)",
          linear_in="a")
deflinear(np.rollaxis, "a, axis, start=0", "_sg.rollaxis_adjoint(g, a, axis, start)",
          linear_in="a")
deflinear(np.broadcast_to, "array, shape, subok=False", "_sg.unbroadcast(g, array)",
          linear_in="array")
# A cast to an integer or boolean dtype truncates: derivative zero (x.astype(int) too).
defadjoint(np.array, "object, dtype=None, copy=True, order='K', subok=False, ndmin=0",
           object="_sg.cast_adjoint(g, object, dtype)",
           tangent={"object": "_sg.cast_tangent(object_dot, dtype, copy)"})
defadjoint(np.asarray, "a, dtype=None, order=None", a="_sg.cast_adjoint(g, a, dtype)",
           tangent={"a": "_sg.cast_tangent(a_dot, dtype, None)"})
defadjoint(np.asanyarray, "a, dtype=None, order=None", a="_sg.cast_adjoint(g, a, dtype)",
           tangent={"a": "_sg.cast_tangent(a_dot, dtype, None)"})
deflinear(np.copy, "a, order='K', subok=False", "g", linear_in="a")
deflinear(np.tile, "A, reps", "_sg.tile_adjoint(g, A, reps)", linear_in="A")
deflinear(np.repeat, "a, repeats, axis=None", "_sg.repeat_adjoint(g, a, repeats, axis)",
          linear_in="a")

# Reversals and rotations: permutations, transposed by the inverse permutation.
deflinear(np.flip, "m, axis=None", "np.flip(g, axis)", linear_in="m")
deflinear(np.flipud, "m", "np.flipud(g)", linear_in="m")
deflinear(np.fliplr, "m", "np.fliplr(g)", linear_in="m")
deflinear(np.rot90, "m, k=1, axes=None", "_sg.rot90_adjoint(g, k, axes)", linear_in="m")
deflinear(np.roll, "a, shift, axis=None", "np.roll(g, np.negative(shift), axis)",
          linear_in="a")

# Joining.
_JOIN = "out=None, dtype=None, casting='same_kind'"
deflinear(np.concatenate, f"arrays, axis=0, {_JOIN}",
          "_sg.concatenate_adjoint(g, arrays, axis)", linear_in="arrays")
deflinear(np.stack, f"arrays, axis=0, {_JOIN}", "_sg.stack_adjoint(g, arrays, axis)",
          linear_in="arrays")
deflinear(np.hstack, "tup, dtype=None, casting='same_kind'", "_sg.hstack_adjoint(g, tup)",
          linear_in="tup")
deflinear(np.vstack, "tup, dtype=None, casting='same_kind'", "_sg.vstack_adjoint(g, tup)",
          linear_in="tup")
deflinear(np.dstack, "tup", "_sg.dstack_adjoint(g, tup)", linear_in="tup")
deflinear(np.column_stack, "tup", "_sg.column_stack_adjoint(g, tup)", linear_in="tup")

# Splitting: the result is a list; its cotangent is a list, concatenated back.
_SPLIT = "ary, indices_or_sections"
deflinear(np.split, f"{_SPLIT}, axis=0", "_sg.split_adjoint(g, ary, axis)", linear_in="ary")
deflinear(np.array_split, f"{_SPLIT}, axis=0", "_sg.split_adjoint(g, ary, axis)",
          linear_in="ary")
deflinear(np.hsplit, _SPLIT, "_sg.hsplit_adjoint(g, ary)", linear_in="ary")
deflinear(np.vsplit, _SPLIT, "_sg.split_adjoint(g, ary, 0)", linear_in="ary")
deflinear(np.dsplit, _SPLIT, "_sg.split_adjoint(g, ary, 2)", linear_in="ary")

# np.row_stack: vstack's deprecated alias (NumPy 2 still has it).
if hasattr(np, "row_stack"):
    deflinear(np.row_stack, "tup, dtype=None, casting='same_kind'",
              "_sg.vstack_adjoint(g, tup)", linear_in="tup")

# NumPy's scalar types called as casts: np.float32(x) keeps the derivative (in its
# dtype), np.int64(x) truncates (zero derivative, as int(x) and x.astype(int)).
# (float16 is left out: finite differences cannot check it, and it is refused instead)
for _name in ("float32", "float64", "longdouble", "complex64", "complex128",
              "clongdouble"):
    defadjoint(getattr(np, _name), "x=0", x=f"_sg.cast_adjoint(g, x, np.{_name})",
               tangent={"x": f"_sg.cast_tangent(x_dot, np.{_name}, None)"})
defnondiff(*{getattr(np, _name) for _name in (
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "intp",
    "uintp", "bool_", "byte", "ubyte", "short", "ushort", "intc", "uintc", "long", "ulong",
    "longlong", "ulonglong") if hasattr(np, _name)})
