"""GradBench's log-sum-exp (``tools/pytorch/lse.py``, ``tools/jax/lse.py``), in plain NumPy:
the gradient of ``max(x) + log(sum(exp(x - max(x))))`` w.r.t. ``x``."""

import numpy as np

DERIVATIVE = "gradient"
WRT = 0
SIZES = {"bench": 100_000, "tiny": 7}


def objective(x):
    max_val = np.max(x)
    return max_val + np.log(np.sum(np.exp(x - max_val)))


def inputs(size, seed=0):
    return (np.random.default_rng(seed).standard_normal(size),)
