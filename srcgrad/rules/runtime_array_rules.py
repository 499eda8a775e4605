"""Rows for the adjoint helpers of array rearrangements, ranges, differences and
integrals (``srcgrad.runtime.array_adjoints``, ``range_adjoints``, ``stats_adjoints``):
each is linear in its cotangent, and its transpose (``srcgrad.runtime.array_transposes``)
is the primal operation again, so the two are each other's rows. ``trapezoid``'s are
bilinear (the rule is linear in ``y`` and in the spacing).

Before (a generated gradient)::          After (reverse mode over it)::

    d_a = _sg.diff_adjoint(g, a, 1, -1)      dg = _sg.diff_tangent(dd_a, a, 1, -1)
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint

# (helper, parameters, transpose in its first parameter): the other parameters enter
# through shapes, indices and flags only.
_LINEAR = [
    (rt.split_adjoint, "v, ary, axis", "_sg.split_adjoint_transpose(g, v, ary, axis)"),
    (rt.split_adjoint_transpose, "v, w, ary, axis", "_sg.split_adjoint(g, ary, axis)"),
    (rt.hsplit_adjoint, "v, ary", "_sg.hsplit_adjoint_transpose(g, v, ary)"),
    (rt.hsplit_adjoint_transpose, "v, w, ary", "_sg.hsplit_adjoint(g, ary)"),
    (rt.append_adjoint, "v, arr, values, axis",
     "_sg.append_adjoint_transpose(g, arr, values, axis)"),
    (rt.append_adjoint_transpose, "v, arr, values, axis",
     "_sg.append_adjoint(g, arr, values, axis)"),
    (rt.partition_adjoint, "v, a, kth, axis", "_sg.partition_tangent(g, a, kth, axis)"),
    (rt.partition_tangent, "v, a, kth, axis", "_sg.partition_adjoint(g, a, kth, axis)"),
    (rt.linspace_adjoint, "v, start, stop, num, endpoint, axis, which",
     "_sg.linspace_part(g, start, stop, num, endpoint, axis, which)"),
    (rt.linspace_part, "v, start, stop, num, endpoint, axis, which",
     "_sg.linspace_adjoint(g, start, stop, num, endpoint, axis, which)"),
    (rt.arange_start_adjoint, "v, stop, ans_", "_sg.arange_start_tangent(g, stop, ans_)"),
    (rt.arange_start_tangent, "v, stop, ans_", "_sg.arange_start_adjoint(g, stop, ans_)"),
    (rt.arange_step_adjoint, "v, ans_", "_sg.arange_step_tangent(g, ans_)"),
    (rt.arange_step_tangent, "v, ans_", "_sg.arange_step_adjoint(g, ans_)"),
    (rt.tolist_adjoint, "v, x", "_sg.array_tolist(g)"),
    (rt.diff_adjoint, "v, a, n, axis, prepend=None, append=None",
     "_sg.diff_tangent(g, a, n, axis, prepend, append)"),
    (rt.diff_tangent, "v, a, n, axis, prepend=None, append=None",
     "_sg.diff_adjoint(g, a, n, axis, prepend, append)"),
    (rt.imag_adjoint, "v, val", "_sg.imag_adjoint_transpose(g, val)"),
    (rt.imag_adjoint_transpose, "v, val", "_sg.imag_adjoint(g, val)"),
]
for _helper, _spec, _transpose in _LINEAR:
    defadjoint(_helper, _spec, tangent="linear", v=_transpose)

# linspace's tangent: linear in both ends' tangents (``start``, ``stop``: shapes only).
defadjoint(rt.linspace_tangent, "start_dot, stop_dot, start, stop, num, endpoint, axis",
           tangent="linear",
           start_dot="_sg.linspace_adjoint(g, start_dot, stop, num, endpoint, axis, 0)",
           stop_dot="_sg.linspace_adjoint(g, start, stop_dot, num, endpoint, axis, 1)")

# trapezoid(y, x, dx) is linear in y and in the spacing (x through its differences, or
# dx): its adjoints are bilinear, and each one's other partial is a sibling adjoint.
defadjoint(rt.trapezoid_adjoint_y, "v, y, x, dx, axis",
           v="np.trapezoid(g, x, dx, axis)",
           x="_sg.trapezoid_adjoint_x(v, g, x, axis)",
           dx="_sg.trapezoid_adjoint_dx(v, g, axis)",
           tangent={"v": "_sg.trapezoid_adjoint_y(v_dot, y, x, dx, axis)",
                    "x": "_sg.trapezoid_adjoint_y(v, y, x_dot, dx, axis)",
                    "dx": "_sg.trapezoid_adjoint_y(v, y, None, dx_dot, axis)"})
defadjoint(rt.trapezoid_adjoint_x, "v, y, x, axis",
           v="np.trapezoid(y, g, axis=axis)",
           y="_sg.trapezoid_adjoint_y(v, y, g, 1.0, axis)",
           tangent={"v": "_sg.trapezoid_adjoint_x(v_dot, y, x, axis)",
                    "y": "_sg.trapezoid_adjoint_x(v, y_dot, x, axis)"})
defadjoint(rt.trapezoid_adjoint_dx, "v, y, axis",
           v="_sg.trapezoid_dx_transpose(g, y, axis)",
           y="_sg.trapezoid_adjoint_y(g * v, y, None, 1.0, axis)",
           tangent={"v": "_sg.trapezoid_adjoint_dx(v_dot, y, axis)",
                    "y": "_sg.trapezoid_adjoint_dx(v, y_dot, axis)"})
defadjoint(rt.trapezoid_dx_transpose, "v, y, axis",
           v="_sg.trapezoid_adjoint_dx(g, y, axis)",
           y="_sg.trapezoid_adjoint_y(g * v, y, None, 1.0, axis)",
           tangent={"v": "_sg.trapezoid_dx_transpose(v_dot, y, axis)",
                    "y": "v * np.trapezoid(y_dot, axis=axis)"})
