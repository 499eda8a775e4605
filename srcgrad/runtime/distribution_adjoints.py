"""Partials and adjoints of ``scipy.stats`` rows (see ``srcgrad.rules.scipy_stats``).

SciPy is imported on first use, so the runtime itself still needs only NumPy.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import as_array


def distribution(name, method, *args):
    """``distribution('norm', 'pdf', x, loc, scale)`` is ``scipy.stats.norm.pdf(x, loc, scale)``."""
    import scipy.stats

    return getattr(getattr(scipy.stats, name), method)(*args)


def _density(name, method):
    def density(*args):
        return distribution(name, method, *args)
    density.__name__ = density.__qualname__ = f"stats_{name}_{method}"
    density.__doc__ = (f"``scipy.stats.{name}.{method}``: what the rows of {name}'s other "
                       "functions call (a rule row itself, so they differentiate again).")
    return density


# ``stats_norm_pdf``, ``stats_norm_logpdf``... (``srcgrad.rules.scipy_stats`` gives their rows)
DENSITIES = [(name, method) for name in ("norm", "cauchy", "laplace", "logistic", "expon", "t",
                                         "gamma", "chi2", "beta")
             for method in ("pdf", "logpdf")] + [("poisson", "pmf"), ("binom", "pmf")]
for _name, _method in DENSITIES:
    globals()[f"stats_{_name}_{_method}"] = _density(_name, _method)


# -- Dirichlet: components along the first axis of x ----------------------------------------
# With C the concentrations as a column along x's first axis, the log density's partials
# are d/dx = (C - 1) / x and d/dalpha = digamma(sum(alpha)) - digamma(C) + log(x) (summed
# over the samples); the rows of these helpers (``rules.runtime_distribution_rules``)
# write their derivatives with the same helpers, ``dirichlet_column`` and NumPy.
def dirichlet_column(alpha, x):
    """``alpha`` shaped to broadcast along ``x``'s first axis (its K components)."""
    alpha = as_array(alpha)
    if np.shape(x)[0] != alpha.shape[0]:
        raise NotImplementedError(
            "the derivative of scipy.stats.dirichlet needs all K components of x "
            f"(got {np.shape(x)[0]} for {alpha.shape[0]} concentrations)")
    return np.reshape(alpha, alpha.shape + (1,) * (np.ndim(x) - 1))


def dirichlet_column_adjoint(v, x):
    """The transpose of ``dirichlet_column``: ``v`` (shaped like ``x``) summed over the
    samples, one value per component."""
    v = np.broadcast_to(v, np.shape(x))
    return np.sum(np.reshape(v, (v.shape[0], -1)), axis=1)


def _dirichlet_parts(x, alpha):
    import scipy.special

    x, alpha = as_array(x, float), as_array(alpha, float)
    column = dirichlet_column(alpha, x)
    d_x = (column - 1) / x
    d_alpha = scipy.special.digamma(np.sum(alpha)) - scipy.special.digamma(column) + np.log(x)
    return d_x, d_alpha


def dirichlet_adjoint_x(g, x, alpha):
    return g * _dirichlet_parts(x, alpha)[0]


def dirichlet_adjoint_alpha(g, x, alpha):
    return dirichlet_column_adjoint(g * _dirichlet_parts(x, alpha)[1], x)


def dirichlet_tangent_x(x_dot, x, alpha):
    return np.sum(x_dot * _dirichlet_parts(x, alpha)[0], axis=0)


def dirichlet_tangent_alpha(alpha_dot, x, alpha):
    d_alpha = _dirichlet_parts(x, alpha)[1]
    return np.sum(dirichlet_column(alpha_dot, x) * d_alpha, axis=0)


# -- multivariate normal: samples along the last axis of x ------------------------------------
# The rows of ``multivariate_normal.logpdf`` and ``pdf`` (``rules.scipy_stats``) are written
# with NumPy and these pieces, each a row (``rules.runtime_distribution_rules``): with
# ``R`` the centred samples (n, d), ``F`` the covariance matrix as SciPy reads it and
# ``S = F^-1``, ``log p = -(R S R^T)_ii / 2 - log det F / 2 - d log(2 pi) / 2``.
def mvn_dimension(mean, cov):
    """SciPy's own rule: the size of ``mean``, else the side of a matrix ``cov``, else 1."""
    if mean is not None:
        return int(np.size(mean))
    return np.shape(cov)[0] if np.ndim(cov) == 2 else 1


def mvn_samples(x, mean, cov):
    """The samples of ``x`` as rows (n, d), less ``mean`` (linear in both)."""
    dim = mvn_dimension(mean, cov)
    samples = np.reshape(as_array(x, float), (-1, dim))
    return samples - (0.0 if mean is None else np.broadcast_to(mean, (dim,)))


def mvn_full_cov(cov, dim):
    """The (d, d) covariance matrix SciPy reads from ``cov``: one variance, a vector of
    variances, or a matrix's lower triangle (its upper triangle is not read). Linear."""
    cov = as_array(cov, float)
    if cov.ndim == 0:
        return cov * np.eye(dim)
    if cov.ndim == 1:
        return np.diag(cov)
    return np.tril(cov) + np.swapaxes(np.tril(cov, -1), -1, -2)


def mvn_reduce_cov(v, cov):
    """The transpose of ``mvn_full_cov``: a (d, d) cotangent as that of ``cov`` in the
    form it was given (the lower triangle takes the upper's terms)."""
    v = as_array(v)
    if np.ndim(cov) == 0:
        return np.trace(v)
    if np.ndim(cov) == 1:
        return np.diagonal(v).copy()
    return np.tril(v) + np.tril(np.swapaxes(v, -1, -2), -1)


def mvn_inverse(full):
    """``full``'s inverse (a covariance matrix: real)."""
    return np.linalg.inv(full)


def mvn_entropy_inverse(cov):
    """``cov``'s inverse transposed, or the reciprocals of variances: the gradient of
    ``log det`` (``multivariate_normal.entropy`` is ``0.5 log det(2 pi e cov)``)."""
    cov = as_array(cov)
    if cov.ndim < 2:
        return 1.0 / cov
    return np.swapaxes(np.linalg.inv(cov), -1, -2)


def mvn_entropy_adjoint(g, cov):
    """The cotangent of ``cov`` in ``multivariate_normal.entropy(mean, cov)``."""
    return 0.5 * g * mvn_entropy_inverse(cov)


def mvn_entropy_tangent(cov_dot, cov):
    return 0.5 * np.sum(mvn_entropy_inverse(cov) * cov_dot)
