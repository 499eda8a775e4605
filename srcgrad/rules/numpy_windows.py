"""Finite differences, convolutions and window views (``np.gradient``, ``np.convolve``,
``sliding_window_view``, ``as_strided``): all linear in their data (the convolution in
each operand); see ``srcgrad.runtime.convolution_adjoints``."""

import numpy as np
from numpy.lib import stride_tricks

from srcgrad.rules.registry import defadjoint

defadjoint(np.gradient, "f, spacing=None, axis=None, edge_order=1",
           f="_sg.gradient_adjoint(g, f, spacing, axis, edge_order)",
           tangent={"f": "_sg.gradient_tangent(f_dot, f, spacing, axis, edge_order)"},
           refuses=("spacing",)).constants["edge_order"] = "the order of the edge stencil (1 or 2)"
defadjoint(np.convolve, "a, v, mode='full'",
           a="_sg.convolve_adjoint(g, v, a, True)",
           v="_sg.convolve_adjoint(g, a, v, True)",
           tangent={"a": "np.convolve(a_dot, v, mode)", "v": "np.convolve(a, v_dot, mode)"})
defadjoint(stride_tricks.sliding_window_view,
           "x, window_shape, axis=None, subok=False, writeable=False",
           x="_sg.sliding_window_adjoint(g, x, window_shape, axis)",
           tangent={"x": "_sg.sliding_window_tangent(x_dot, x, window_shape, axis)"},
           name="numpy.lib.stride_tricks.sliding_window_view"
           ).constants.update(window_shape="the window's shape (integers)",
                              writeable="a flag", subok="a flag")
defadjoint(stride_tricks.as_strided, "x, shape=None, strides=None, subok=False, writeable=True",
           x="_sg.strided_adjoint(g, x, shape, strides)",
           tangent={"x": "_sg.strided_tangent(x_dot, x, shape, strides)"},
           name="numpy.lib.stride_tricks.as_strided"
           ).constants.update(strides="byte strides (integers)", writeable="a flag",
                              subok="a flag")
