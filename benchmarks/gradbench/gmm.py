"""GradBench's / ADBench's Gaussian mixture objective with a Wishart prior
(``tools/jax/gmm_objective.py``, ADBench ``src/python/modules/PyTorch/gmm_objective.py``):
``benchmarks.workloads.gmm``'s NumPy port at GradBench's size d=20, k=50 (n=1000). The
derivative is the gradient w.r.t. the weights, means and inverse-covariance factors."""

import numpy as np

from benchmarks.workloads.gmm import lower_triangle_index, objective  # noqa: F401

DERIVATIVE = "gradient"
WRT = (0, 1, 2)
# (dimensions, components, points)
SIZES = {"bench": (20, 50, 1000), "tiny": (3, 2, 5)}


def inputs(size, seed=0):
    """ADBench's generator's shapes: weights, means, packed inverse-covariance factors,
    points, the prior's gamma and m, and L's index map."""
    d, k, n = size
    rng = np.random.default_rng(seed)
    alphas = rng.standard_normal(k)
    means = rng.uniform(0.0, 1.0, (k, d))
    icf = rng.uniform(0.0, 1.0, (k, d + d * (d - 1) // 2))
    x = rng.standard_normal((n, d))
    return alphas, means, icf, x, 1.0, 0, lower_triangle_index(d)
