"""Products and linear algebra: full templates (the long tail of the table)."""

import numpy as np

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
           a="_sg.inner_adjoint_a(g, a, b)", b="_sg.inner_adjoint_a(g, b, a)",
           tangent={"a": "np.inner(a_dot, b)", "b": "np.inner(a, b_dot)"})
defadjoint(np.vdot, "a, b", a="np.reshape(g * np.ravel(b), np.shape(a))",
           b="np.reshape(g * np.ravel(a), np.shape(b))",
           tangent={"a": "np.vdot(a_dot, b)", "b": "np.vdot(a, b_dot)"})
