"""GradBench's ODE (``tools/jax/ode.py``; the reference implementations in C++ and
Futhark loop over components): ``y' = f(y)`` with ``f(y)[0] = x[0]`` and ``f(y)[i] =
x[i] * y[i-1]``, integrated from zeros over ``[0, 2]`` by ``s`` steps of the classical
Runge-Kutta method, in plain NumPy. The derivative is the gradient of the last
component of the final state w.r.t. ``x``."""

import numpy as np

DERIVATIVE = "gradient"
WRT = 0
# (components, steps)
SIZES = {"bench": (1000, 10), "tiny": (4, 3)}


def ode_fun(x, y):
    return np.concatenate((x[:1], x[1:] * y[:-1]))


def runge_kutta(x, yi, tf, s):
    h = tf / s
    yf = yi
    for _ in range(s):
        k1 = ode_fun(x, yf)
        k2 = ode_fun(x, yf + h / 2 * k1)
        k3 = ode_fun(x, yf + h / 2 * k2)
        k4 = ode_fun(x, yf + h * k3)
        yf = yf + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return yf


def objective(x, s):
    y = runge_kutta(x, np.zeros_like(x), 2.0, s)
    return y[-1]


def inputs(size, seed=0):
    n, s = size
    return np.random.default_rng(seed).uniform(0.0, 1.0, n), s
