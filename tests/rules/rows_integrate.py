"""Test rows for scipy.integrate.odeint (present only when SciPy imports). The solver runs
at tight tolerances so that finite differences of its output are smooth."""

import numpy as np

from tests.rules.harness import In, normal, positive, row, uniform

try:
    from scipy.integrate import odeint
except ImportError:  # pragma: no cover
    odeint = None

TIMES = np.array([0.0, 0.4, 1.0, 1.5])


def damped(y, t, k):
    return -k * y * np.sin(t + 1.0) + 0.1 * y[::-1]


def rotation(t, y, a):
    return np.tanh(a @ y) + 0.2 * t


def increasing_times(rng):
    return np.cumsum(rng.uniform(0.2, 0.6, 4)) - 0.2


ROWS = [] if odeint is None else [
    row("scipy.integrate.odeint", lambda y0, k: odeint(damped, y0, TIMES, args=(k,),
                                                       rtol=1e-12, atol=1e-12),
        positive(2), uniform(0.3, 1.0), rtol=1e-4, atol=1e-6),
    row("scipy.integrate.odeint", lambda t: odeint(damped, np.array([1.0, 0.5]), t,
                                                   args=(0.6,), rtol=1e-12, atol=1e-12),
        In(increasing_times, label="times"), rtol=1e-4, atol=1e-6, note="times"),
    row("scipy.integrate.odeint", lambda y0, a: odeint(rotation, y0, TIMES, args=(a,),
                                                       tfirst=True, rtol=1e-12, atol=1e-12),
        normal(3), normal(3, 3), rtol=1e-4, atol=1e-6, note="tfirst, matrix argument"),
]
