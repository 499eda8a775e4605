"""Products: full templates, each bilinear (the tangent is the sum of the products with
one factor replaced by its tangent)."""

import numpy as np

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint

defadjoint(np.dot, "a, b, out=None",
           a="_sg.dot_adjoint_a(g, a, b)", b="_sg.dot_adjoint_b(g, a, b)",
           tangent={"a": "np.dot(a_dot, b)", "b": "np.dot(a, b_dot)"})
defadjoint(np.matmul, "x1, x2",
           x1="_sg.matmul_adjoint_a(g, x1, x2)", x2="_sg.matmul_adjoint_b(g, x1, x2)",
           tangent={"x1": "np.matmul(x1_dot, x2)", "x2": "np.matmul(x1, x2_dot)"})
defadjoint(np.outer, "a, b, out=None",
           a="np.reshape(np.dot(g, np.ravel(b)), np.shape(a))",
           b="np.reshape(np.dot(np.ravel(a), g), np.shape(b))",
           tangent={"a": "np.outer(a_dot, b)", "b": "np.outer(a, b_dot)"})
defadjoint(np.inner, "a, b",
           a="_sg.inner_adjoint_a(g, a, b)", b="_sg.inner_adjoint_b(g, a, b)",
           tangent={"a": "np.inner(a_dot, b)", "b": "np.inner(a, b_dot)"})
defadjoint(np.vdot, "a, b", a="np.reshape(np.conj(g * np.ravel(b)), np.shape(a))",
           b="np.reshape(g * np.conj(np.ravel(a)), np.shape(b))",
           tangent={"a": "np.vdot(a_dot, b)", "b": "np.vdot(a, b_dot)"})
defadjoint(np.tensordot, "a, b, axes=2",
           a="_sg.tensordot_adjoint_a(g, a, b, axes)", b="_sg.tensordot_adjoint_b(g, a, b, axes)",
           tangent={"a": "np.tensordot(a_dot, b, axes)", "b": "np.tensordot(a, b_dot, axes)"})
defadjoint(np.kron, "a, b", a="_sg.kron_adjoint_a(g, a, b)", b="_sg.kron_adjoint_b(g, a, b)",
           tangent={"a": "np.kron(a_dot, b)", "b": "np.kron(a, b_dot)"})
_CROSS = "axisa=axisa, axisb=axisb, axisc=axisc, axis=axis"
defadjoint(np.cross, "a, b, axisa=-1, axisb=-1, axisc=-1, axis=None", broadcasts=True,
           a="np.cross(b, g, axisa=axisb, axisb=axisc, axisc=axisa, axis=axis)",
           b="np.cross(g, a, axisa=axisc, axisb=axisa, axisc=axisb, axis=axis)",
           tangent={"a": f"np.cross(a_dot, b, {_CROSS})", "b": f"np.cross(a, b_dot, {_CROSS})"})

# einsum takes its operands as *args: up to eight positional slots, bound by position.
_SLOTS = ("subscripts", "o1", "o2", "o3", "o4", "o5", "o6", "o7")
_EINSUM = ", ".join(_SLOTS[:1] + tuple(f"{s}=None" for s in _SLOTS[1:])) + \
    ", out=None, dtype=None, order='K', casting='safe', optimize=False"
_OPERANDS = ", ".join(_SLOTS)
_ARGUMENTS = ", ".join(_SLOTS)
# The cotangent of slot i: the partial of the full contraction (``runtime.einsum_partials``)
# in that slot, at the other slots and ``g``.
_EINSUM_ROW = dict(
    **{s: f"_sg.einsum_partial(_sg.einsum_spec({i}, {_ARGUMENTS}), "
          f"{', '.join(o for o in _SLOTS if o != s)}, g)" for i, s in enumerate(_SLOTS)},
    tangent={s: "_sg.einsum_call(" + _OPERANDS.replace(s, s + "_dot") + ")" for s in _SLOTS})
defadjoint(np.einsum, _EINSUM, **_EINSUM_ROW)
# the tangent's call: np.einsum of the slots given, with np.einsum's row
defadjoint(rt.einsum_call, ", ".join(_SLOTS[:1] + tuple(f"{s}=None" for s in _SLOTS[1:])),
           **_EINSUM_ROW)
