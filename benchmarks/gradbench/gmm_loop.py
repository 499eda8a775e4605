"""The loop form of ADBench's Gaussian mixture objective: its C++ reference
(``src/cpp/shared/gmm.h``) loops over the points, and for each over the components; here
the loop over points is a Python loop and each point's components are one array
operation (``L`` gathered from the packed parameters as in ``benchmarks.workloads.gmm``).
The derivative is the gradient w.r.t. the weights, means and inverse-covariance factors."""

import math

import numpy as np

from benchmarks.gradbench.gmm import inputs  # noqa: F401
from benchmarks.workloads.gmm import log_wishart_prior, logsumexp

DERIVATIVE = "gradient"
WRT = (0, 1, 2)
# (dimensions, components, points)
SIZES = {"bench": (10, 25, 200), "tiny": (3, 2, 4)}
# jax.jit traces the Python loop into 200 copies of its body: its XLA compile ran for
# over 5 minutes on the benchmark machine without finishing
NOT_RUN = {"jax.jit": "not run: compile > 5 min (the loop unrolled)"}


def objective(alphas, means, icf, x, wishart_gamma, wishart_m, lower_index):
    n, d = x.shape
    k = alphas.shape[0]
    Qdiags = np.exp(icf[:, :d])
    sum_qs = np.sum(icf[:, :d], axis=1)
    packed = np.concatenate((np.zeros((k, 1)), icf[:, d:]), axis=1)
    Ls = packed[:, lower_index]
    slse = 0.0
    for i in range(n):
        xcentered = x[i] - means
        Lxcentered = Qdiags * xcentered + np.einsum("kij,kj->ki", Ls, xcentered)
        inner = alphas + sum_qs - 0.5 * np.sum(Lxcentered ** 2, axis=1)
        slse = slse + logsumexp(inner, axis=0)
    constant = -n * d * 0.5 * math.log(2 * math.pi)
    return (constant + slse - n * logsumexp(alphas, axis=0)
            + log_wishart_prior(d, wishart_gamma, wishart_m, sum_qs, Qdiags, icf))
