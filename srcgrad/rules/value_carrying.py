"""Functions that look like bookkeeping but carry a value through some argument.

Each is locally constant in its other arguments, so its row names only the argument
that carries the value:

    math.copysign(x, y)            |x| with y's sign: d/dx = sign(x) * sign(y)
    np.arange(start, stop, step)   start + i * step (one argument: 0, 1, ... n - 1)
    np.bincount(x, weights=w)      per-bin sums of w: linear in w
    np.heaviside(x1, x2)           x2 exactly where x1 == 0
    np.fft.fftfreq(n, d)           k / (n * d)
    x.tolist()                     the same numbers as nested lists
"""

import math

import numpy as np

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defconstant, defelementwise, deflinear

defelementwise(math.copysign, "math.copysign(1.0, x) * math.copysign(1.0, y)", None)
defelementwise(np.copysign, "np.copysign(1.0, x) * np.copysign(1.0, y)", None)
defelementwise(np.heaviside, None, "np.equal(x1, 0)", params=("x1", "x2"))

defadjoint(np.arange, "start, stop=None, step=None, dtype=None",
           start="_sg.arange_start_adjoint(g, stop, ans)",
           step="_sg.arange_step_adjoint(g, ans)",
           tangent={"start": "_sg.arange_start_tangent(start_dot, stop, ans)",
                    "step": "_sg.arange_step_tangent(step_dot, ans)"})
deflinear(np.bincount, "x, weights=None, minlength=0", "g[x]", linear_in="weights")
for _freq in (np.fft.fftfreq, np.fft.rfftfreq):
    defadjoint(_freq, "n, d=1.0, device=None", d="-np.sum(g * ans) / d",
               tangent={"d": "-ans / d * d_dot"})
deflinear(rt.array_tolist, "x", "_sg.tolist_adjoint(g, x)")

_SIGN_ONLY = "only its sign is read: the value is piecewise constant in it"
defconstant(math.copysign, y=_SIGN_ONLY)
defconstant(np.copysign, y=_SIGN_ONLY)
defconstant(np.heaviside, x1="the step's input: the value is piecewise constant in it")
defconstant(np.arange, stop="the end of the range: it sets how many values there are, "
            "not what they are")
defconstant(np.bincount, x="integer bin indices")
