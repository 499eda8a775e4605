"""Gathers, triangles, diagonals, padding, sorting and creation from a fill value.

Index and shape arguments are constants; each row is linear in its array argument except
the sorts, whose permutation is piecewise constant in the data.
"""

import numpy as np

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defconstant, deflinear, defnondiff, defrefuses

deflinear(np.triu, "m, k=0", "np.triu(g, k)", linear_in="m")
deflinear(np.tril, "m, k=0", "np.tril(g, k)", linear_in="m")
deflinear(np.diag, "v, k=0", "_sg.diag_adjoint(g, v, k)", linear_in="v")
deflinear(np.diagonal, "a, offset=0, axis1=0, axis2=1",
          "_sg.diagonal_adjoint(g, a, offset, axis1, axis2)", linear_in="a")
deflinear(np.trace, "a, offset=0, axis1=0, axis2=1, dtype=None, out=None",
          "_sg.trace_adjoint(g, a, offset, axis1, axis2)", linear_in="a")
_pad = deflinear(np.pad, "array, pad_width, mode='constant', constant_values=0",
                 "_sg.pad_adjoint(g, array, pad_width, mode)", linear_in="array")
# Affine, not linear, in ``array`` when the fill is not zero: the tangent pads with zeros.
_pad.tangent = {"array": "np.pad(array_dot, pad_width, mode)"}
_pad.refuses = ("constant_values",)
deflinear(np.take, "a, indices, axis=None, out=None, mode='raise'",
          "_sg.take_adjoint(g, a, indices, axis)", linear_in="a")
deflinear(np.take_along_axis, "arr, indices, axis=-1",
          "_sg.take_along_axis_adjoint(g, arr, indices, axis)", linear_in="arr")
defadjoint(np.append, "arr, values, axis=None",
           arr="_sg.append_adjoint(g, arr, values, axis)[0]",
           values="_sg.append_adjoint(g, arr, values, axis)[1]", tangent="linear")
defadjoint(np.real_if_close, "a, tol=100", a="g", tangent={"a": "a_dot"})

# Sorting: the cotangent follows each element back through the sorting permutation.
defadjoint(np.sort, "a, axis=-1, kind=None, order=None, stable=None",
           a="_sg.sort_adjoint(g, a, axis)", tangent={"a": "_sg.sort_tangent(a_dot, a, axis)"})
defadjoint(np.partition, "a, kth, axis=-1, kind='introselect', order=None",
           a="_sg.partition_adjoint(g, a, kth, axis)",
           tangent={"a": "np.take_along_axis(a_dot, np.argpartition(a, kth, axis), axis)"})

# Arrays built from differentiable fill values.
defadjoint(np.full, "shape, fill_value, dtype=None, order='C', device=None, like=None",
           fill_value="_sg.unbroadcast(g, fill_value)",
           tangent={"fill_value": "np.full(shape, fill_value_dot)"})
defadjoint(np.full_like, "a, fill_value, dtype=None, order='K', subok=True, shape=None",
           fill_value="_sg.unbroadcast(g, fill_value)",
           tangent={"fill_value": "np.full_like(a, fill_value_dot, dtype=dtype)"})
_LINSPACE = "start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0"
defadjoint(np.linspace, _LINSPACE,
           start="_sg.linspace_adjoint(g, start, stop, num, endpoint, axis, 0)",
           stop="_sg.linspace_adjoint(g, start, stop, num, endpoint, axis, 1)",
           tangent={"start": "_sg.linspace_tangent(start_dot, 0, start, stop, num, endpoint, axis)",
                    "stop": "_sg.linspace_tangent(0, stop_dot, start, stop, num, endpoint, axis)"})

# Piecewise-linear interpolation: on the segment i each x is in (piecewise constant),
# y = fp_i (1 - t) + fp_i+1 t with t = (x - xp_i) / (xp_i+1 - xp_i); beyond xp's range
# the end value of fp (unless left/right replaces it). Written with np.take (its
# transpose is _sg.take_adjoint), so every order differentiates through rows.
_I = "_sg.interp_index(x, xp, period)"
_M = "_sg.interp_inside(x, xp)"
_W = f"(np.take(xp, {_I} + 1) - np.take(xp, {_I}))"
_T = f"((x - np.take(xp, {_I})) / {_W})"
_SLOPE = f"((np.take(fp, {_I} + 1) - np.take(fp, {_I})) / {_W})"
_ENDS = (("_sg.interp_outside(x, xp, left, 0)", "0"),
         ("_sg.interp_outside(x, xp, right, -1)", "-1"))


def _scatter(value, onto, index):
    return f"_sg.take_adjoint({value}, {onto}, {index}, None)"


defadjoint(np.interp, "x, xp, fp, left=None, right=None, period=None",
           x=f"g * {_M} * {_SLOPE}",
           xp=f"{_scatter(f'g * {_M} * {_SLOPE} * ({_T} - 1)', 'xp', _I)} - "
              f"{_scatter(f'g * {_M} * {_SLOPE} * {_T}', 'xp', f'{_I} + 1')}",
           fp=" + ".join([_scatter(f"g * {_M} * (1 - {_T})", "fp", _I),
                          _scatter(f"g * {_M} * {_T}", "fp", f"{_I} + 1")]
                         + [_scatter(f"np.sum(g * {mask})", "fp", end) for mask, end in _ENDS]),
           tangent={"x": f"x_dot * {_M} * {_SLOPE}",
                    "xp": f"{_M} * {_SLOPE} * (({_T} - 1) * np.take(xp_dot, {_I}) - {_T} * "
                          f"np.take(xp_dot, {_I} + 1))",
                    "fp": " + ".join([f"{_M} * ((1 - {_T}) * np.take(fp_dot, {_I}) + {_T} * "
                                      f"np.take(fp_dot, {_I} + 1))"]
                                     + [f"{mask} * np.take(fp_dot, {end})"
                                        for mask, end in _ENDS])})
defnondiff(rt.interp_index, rt.interp_inside, rt.interp_outside)
defrefuses(np.interp, "left", "right", "period")
defconstant(np.real_if_close, tol="a tolerance: the value is locally constant in it")
defconstant(np.full_like, a="only its shape and dtype are read")

# np.select: linear in its choices and its default (the conditions are masks).
defadjoint(np.select, "condlist, choicelist, default=0",
           choicelist="_sg.select_choices_adjoint(g, condlist, choicelist)",
           default="_sg.unbroadcast(_sg.select_adjoint(g, condlist, choicelist, "
                   "len(condlist)), default)",
           tangent={"choicelist": "_sg.select_choices_tangent(choicelist_dot, condlist)",
                    "default": "_sg.select_default_tangent(default_dot, condlist)"}
           ).constants["condlist"] = "boolean masks choosing where each choice is taken"
