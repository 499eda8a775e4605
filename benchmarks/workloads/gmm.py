"""ADBench's Gaussian mixture objective with a Wishart prior (d=10, k=25, n=1000).

Each component's inverse covariance factor is ``Q = diag(exp(icf[:d])) + L``, with ``L``
strictly lower triangular, packed column by column in ``icf[d:]`` as in ADBench. ``L`` is
gathered from the packed parameters through a constant index map (0 selects a zero).
"""

import math

import numpy as np

NAME = "gmm"
TARGET = 2.2
WRT = (0, 1, 2)
# (dimensions, components, points)
SIZES = {"full": (10, 25, 1000), "tiny": (3, 2, 5)}


def logsumexp(a, axis):
    m = np.max(a, axis=axis, keepdims=True)
    return np.log(np.sum(np.exp(a - m), axis=axis)) + np.squeeze(m, axis=axis)


def log_gamma_distrib(a, p):
    return 0.25 * p * (p - 1) * math.log(math.pi) + sum(
        math.lgamma(a + 0.5 * (1 - j)) for j in range(1, p + 1))


def log_wishart_prior(p, wishart_gamma, wishart_m, sum_qs, Qdiags, icf):
    n = p + wishart_m + 1
    k = icf.shape[0]
    frobenius = np.sum(Qdiags ** 2) + np.sum(icf[:, p:] ** 2)
    out = 0.5 * wishart_gamma * wishart_gamma * frobenius - wishart_m * np.sum(sum_qs)
    C = n * p * (math.log(wishart_gamma) - 0.5 * math.log(2)) - log_gamma_distrib(0.5 * n, p)
    return out - k * C


def objective(alphas, means, icf, x, wishart_gamma, wishart_m, lower_index):
    n, d = x.shape
    k = alphas.shape[0]
    Qdiags = np.exp(icf[:, :d])
    sum_qs = np.sum(icf[:, :d], axis=1)
    packed = np.concatenate((np.zeros((k, 1)), icf[:, d:]), axis=1)
    Ls = packed[:, lower_index]
    xcentered = x[None, :, :] - means[:, None, :]
    Lxcentered = Qdiags[:, None, :] * xcentered + xcentered @ np.transpose(Ls, (0, 2, 1))
    inner = (alphas + sum_qs)[:, None] - 0.5 * np.sum(Lxcentered ** 2, axis=2)
    slse = np.sum(logsumexp(inner, axis=0))
    constant = -n * d * 0.5 * math.log(2 * math.pi)
    return (constant + slse - n * logsumexp(alphas, axis=0)
            + log_wishart_prior(d, wishart_gamma, wishart_m, sum_qs, Qdiags, icf))


def lower_triangle_index(d):
    """(d, d) positions of L's entries in ``[0, icf[d:]...]``, column by column."""
    index = np.zeros((d, d), dtype=np.intp)
    cols, rows = np.triu_indices(d, 1)
    index[rows, cols] = np.arange(1, len(rows) + 1)
    return index


def inputs(size="full", seed=0):
    d, k, n = SIZES[size]
    rng = np.random.default_rng(seed)
    alphas = rng.standard_normal(k)
    means = rng.uniform(0.0, 1.0, (k, d))
    icf = rng.uniform(0.0, 1.0, (k, d + d * (d - 1) // 2))
    x = rng.standard_normal((n, d))
    return alphas, means, icf, x, 1.0, 0, lower_triangle_index(d)


def _torch_logsumexp(a, axis):
    import torch

    m = torch.amax(a, dim=axis, keepdim=True)
    return torch.log(torch.sum(torch.exp(a - m), dim=axis)) + torch.squeeze(m, dim=axis)


def torch_objective(alphas, means, icf, x, wishart_gamma, wishart_m, lower_index):
    import torch

    n, d = x.shape
    k = alphas.shape[0]
    Qdiags = torch.exp(icf[:, :d])
    sum_qs = torch.sum(icf[:, :d], dim=1)
    packed = torch.cat((torch.zeros((k, 1), dtype=icf.dtype), icf[:, d:]), dim=1)
    Ls = packed[:, lower_index]
    xcentered = x[None, :, :] - means[:, None, :]
    Lxcentered = Qdiags[:, None, :] * xcentered + xcentered @ torch.transpose(Ls, 1, 2)
    inner = (alphas + sum_qs)[:, None] - 0.5 * torch.sum(Lxcentered ** 2, dim=2)
    slse = torch.sum(_torch_logsumexp(inner, 0))
    constant = -n * d * 0.5 * math.log(2 * math.pi)
    frobenius = torch.sum(Qdiags ** 2) + torch.sum(icf[:, d:] ** 2)
    prior_n = d + wishart_m + 1
    out = 0.5 * wishart_gamma * wishart_gamma * frobenius - wishart_m * torch.sum(sum_qs)
    C = (prior_n * d * (math.log(wishart_gamma) - 0.5 * math.log(2))
         - log_gamma_distrib(0.5 * prior_n, d))
    return constant + slse - n * _torch_logsumexp(alphas, 0) + out - k * C
