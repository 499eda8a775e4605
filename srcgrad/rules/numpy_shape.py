"""Reductions and shape functions: linear rows (with their transpose) and templates."""

import numpy as np

from srcgrad.rules.registry import defadjoint, deflinear

SUM = "a, axis=None, dtype=None, out=None, keepdims=False"
deflinear(np.sum, SUM + ", initial=None, where=None",
          "_sg.sum_adjoint(g, a, axis, keepdims)", linear_in="a")
deflinear(np.mean, SUM + ", where=None", "_sg.mean_adjoint(g, a, axis, keepdims)",
          linear_in="a")
defadjoint(np.prod, SUM + ", initial=None, where=None",
           a="_sg.prod_adjoint(g, a, ans, axis, keepdims)")
for _reduce in (np.max, np.min, np.amax, np.amin):
    defadjoint(_reduce, "a, axis=None, out=None, keepdims=False, initial=None, where=None",
               a="_sg.max_adjoint(g, a, ans, axis, keepdims)")
deflinear(np.cumsum, "a, axis=None, dtype=None, out=None",
          "_sg.cumsum_adjoint(g, a, axis)", linear_in="a")

deflinear(np.reshape, "a, shape=None, order='C', newshape=None", "np.reshape(g, np.shape(a))",
          linear_in="a")
deflinear(np.ravel, "a, order='C'", "np.reshape(g, np.shape(a))", linear_in="a")
deflinear(np.expand_dims, "a, axis", "np.reshape(g, np.shape(a))", linear_in="a")
deflinear(np.squeeze, "a, axis=None", "np.reshape(g, np.shape(a))", linear_in="a")
deflinear(np.atleast_1d, "a", "np.reshape(g, np.shape(a))", linear_in="a")
deflinear(np.atleast_2d, "a", "np.reshape(g, np.shape(a))", linear_in="a")
deflinear(np.transpose, "a, axes=None", "np.transpose(g, _sg.inverse_axes(axes, np.ndim(a)))",
          linear_in="a")
deflinear(np.swapaxes, "a, axis1, axis2", "np.swapaxes(g, axis1, axis2)", linear_in="a")
deflinear(np.moveaxis, "a, source, destination", "np.moveaxis(g, destination, source)",
          linear_in="a")
deflinear(np.broadcast_to, "array, shape, subok=False", "_sg.unbroadcast(g, array)",
          linear_in="array")
deflinear(np.concatenate, "arrays, axis=0, out=None, dtype=None, casting='same_kind'",
          "_sg.concatenate_adjoint(g, arrays, axis)", linear_in="arrays")
deflinear(np.stack, "arrays, axis=0, out=None, dtype=None, casting='same_kind'",
          "_sg.stack_adjoint(g, arrays, axis)", linear_in="arrays")
deflinear(np.hstack, "tup, dtype=None, casting='same_kind'", "_sg.hstack_adjoint(g, tup)",
          linear_in="tup")
deflinear(np.vstack, "tup, dtype=None, casting='same_kind'", "_sg.vstack_adjoint(g, tup)",
          linear_in="tup")
deflinear(np.array, "object, dtype=None, copy=True, order='K', subok=False, ndmin=0",
          "_sg.array_adjoint(g, object)", linear_in="object")
deflinear(np.asarray, "a, dtype=None, order=None", "_sg.array_adjoint(g, a)", linear_in="a")
deflinear(np.copy, "a, order='K', subok=False", "g", linear_in="a")
deflinear(np.trace, "a, offset=0, axis1=0, axis2=1, dtype=None, out=None",
          "_sg.trace_adjoint(g, a, offset, axis1, axis2)", linear_in="a")
deflinear(np.diag, "v, k=0", "_sg.diag_adjoint(g, v, k)", linear_in="v")
deflinear(np.tile, "A, reps", "_sg.tile_adjoint(g, A, reps)", linear_in="A")
deflinear(np.repeat, "a, repeats, axis=None", "_sg.repeat_adjoint(g, a, repeats, axis)",
          linear_in="a")
