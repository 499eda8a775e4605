"""GradBench's linear least squares (``tools/jax/llsq.py``), in plain NumPy: fit the
sign function on ``n`` points of ``[-1, 1]`` by a polynomial of ``m`` coefficients
``x``; the objective is half the sum of squared residuals, the derivative its gradient
w.r.t. ``x``. (JAX's ``vmap`` over the points becomes a broadcast over rows.)"""

import numpy as np

DERIVATIVE = "gradient"
WRT = 0
# (coefficients, points)
SIZES = {"bench": (64, 4096), "tiny": (4, 9)}


def t(i, n):
    return -1.0 + (i * 2.0) / (n - 1.0)


def objective(x, n):
    m = x.shape[0]
    ti = t(np.arange(n), n)
    powers = np.concatenate((np.ones((n, 1)), np.repeat(ti[:, None], m - 1, axis=1)),
                            axis=1)
    muls = np.cumprod(powers, axis=1)
    results = (np.sign(ti) + np.sum(-x * muls, axis=1)) ** 2
    return np.sum(results) / 2.0


def inputs(size, seed=0):
    m, n = size
    return np.random.default_rng(seed).standard_normal(m), n
