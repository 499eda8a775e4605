"""Rows for the runtime helpers that rule rows use as partial derivatives (``np.real``'s
adjoint, ``scipy.special``'s digamma family, the guarded logarithm and ratio of
``x ** p``'s exponent partial), each written with NumPy and helpers that are rows too:
differentiating generated code through one never reads srcgrad's own source.
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defelementwise, deflinear

# ``Re(g)`` for a real target, ``g`` for a complex one: linear in ``g``, and its own
# transpose (a real cotangent of a real part flows back unchanged).
deflinear(rt.match_complex, "target, v", "_sg.match_complex(v, g)", linear_in="v")
defelementwise(rt.digamma, "_sg.polygamma(1, x)")
defelementwise(rt.polygamma, None, "_sg.polygamma(n + 1, x)", params=("n", "x"))
defelementwise(rt.gamma, "ans * _sg.digamma(x)")
# ``like`` only says whether the power is complex (``ans`` is complex exactly then).
defelementwise(rt.safe_log, "_sg.safe_ratio(1.0, x, ans)", None, params="x, like=None")
defelementwise(rt.safe_ratio, "_sg.safe_ratio(1.0, x, ans)", "-_sg.safe_ratio(ans, x)", None,
               params="p, x, like=None")
