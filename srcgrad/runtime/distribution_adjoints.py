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
def _dirichlet_parts(x, alpha):
    import scipy.special

    x, alpha = as_array(x, float), as_array(alpha, float)
    if x.shape[0] != alpha.shape[0]:
        raise NotImplementedError(
            "the derivative of scipy.stats.dirichlet needs all K components of x "
            f"(got {x.shape[0]} for {alpha.shape[0]} concentrations)")
    column = np.reshape(alpha, alpha.shape + (1,) * (x.ndim - 1))
    d_x = (column - 1) / x
    d_alpha = scipy.special.digamma(np.sum(alpha)) - scipy.special.digamma(column) + np.log(x)
    return d_x, d_alpha


def dirichlet_adjoint_x(g, x, alpha):
    return g * _dirichlet_parts(x, alpha)[0]


def dirichlet_adjoint_alpha(g, x, alpha):
    d_alpha = g * _dirichlet_parts(x, alpha)[1]
    return np.sum(np.reshape(d_alpha, (d_alpha.shape[0], -1)), axis=1)


def dirichlet_tangent_x(x_dot, x, alpha):
    return np.sum(x_dot * _dirichlet_parts(x, alpha)[0], axis=0)


def dirichlet_tangent_alpha(alpha_dot, x, alpha):
    d_alpha = _dirichlet_parts(x, alpha)[1]
    column = np.reshape(alpha_dot, np.shape(alpha_dot) + (1,) * (d_alpha.ndim - 1))
    return np.sum(column * d_alpha, axis=0)


# -- multivariate normal: samples along the last axis of x ------------------------------------
def _mvn_dimension(mean, cov):
    """SciPy's own rule: the size of ``mean``, else the side of a matrix ``cov``, else 1."""
    if mean is not None:
        return np.size(mean)
    return np.shape(cov)[0] if np.ndim(cov) == 2 else 1


def _full_cov(cov, dim):
    cov = as_array(cov, float)
    if cov.ndim == 0:
        return cov * np.eye(dim)
    return np.diag(cov) if cov.ndim == 1 else cov


def _reduce_cov(full, cov):
    """A symmetric matrix cotangent as the cotangent of ``cov`` in the form it was given.
    SciPy reads a matrix ``cov`` from its lower triangle only (its upper triangle does
    not change the density), so the lower triangle takes the off-diagonal terms twice."""
    if np.ndim(cov) == 0:
        return np.trace(full)
    if np.ndim(cov) == 1:
        return np.diagonal(full).copy()
    return 2 * np.tril(full, -1) + np.diag(np.diagonal(full))


def _lower_symmetric(matrix):
    """The symmetric matrix SciPy reads from ``matrix``'s lower triangle."""
    return np.tril(matrix) + np.swapaxes(np.tril(matrix, -1), -1, -2)


def _mvn_parts(x, mean, cov):
    """Samples ``(n, d)``, ``C^-1 (x - mean)`` per sample, ``C^-1``."""
    dim = _mvn_dimension(mean, cov)
    samples = np.reshape(as_array(x, float), (-1, dim))
    centered = samples - (0.0 if mean is None else np.broadcast_to(mean, (dim,)))
    inverse = np.linalg.inv(_full_cov(cov, dim))
    return samples, centered @ inverse, inverse


def mvn_adjoint(g, x, mean, cov, part):
    """The cotangent of ``part`` (x, mean or cov) of ``multivariate_normal.logpdf``:
    ``d/dx = -C^-1 (x - mean)``, ``d/dmean = C^-1 (x - mean)``,
    ``d/dC = (C^-1 r r^T C^-1 - C^-1) / 2`` (symmetric; see ``_reduce_cov``)."""
    samples, whitened, inverse = _mvn_parts(x, mean, cov)
    weights = np.broadcast_to(np.reshape(g, (-1,)), (samples.shape[0],))[:, None]
    if part == "x":
        return np.reshape(-weights * whitened, np.shape(x))
    if part == "mean":
        total = np.sum(weights * whitened, axis=0)
        return total if np.ndim(mean) else np.sum(total)
    full = (whitened.T @ (weights * whitened) - np.sum(weights) * inverse) / 2
    return _reduce_cov(full, cov)


def mvn_tangent(dot, x, mean, cov, part):
    """The directional derivative of ``multivariate_normal.logpdf`` along ``dot`` in
    ``part``, shaped like the density's value."""
    samples, whitened, inverse = _mvn_parts(x, mean, cov)
    dim = samples.shape[1]
    if part == "x":
        out = -np.sum(whitened * np.reshape(dot, (-1, dim)), axis=1)
    elif part == "mean":
        out = np.sum(whitened * np.broadcast_to(dot, (dim,)), axis=1)
    else:
        full_dot = _full_cov(dot, dim)
        full_dot = _lower_symmetric(full_dot) if np.ndim(dot) == 2 else full_dot
        out = (np.sum((whitened @ full_dot) * whitened, axis=1)
               - np.trace(inverse @ full_dot)) / 2
    out = np.squeeze(out)   # as SciPy squeezes the density
    return out[()] if out.ndim == 0 else out


def mvn_entropy_adjoint(g, cov):
    """The cotangent of ``cov`` in ``multivariate_normal.entropy(mean, cov)`` (``0.5 *
    log det(2 pi e cov)``): ``g / 2`` times ``cov``'s inverse transposed (a vector of
    variances or one variance: their reciprocals)."""
    cov = np.asarray(cov)
    if cov.ndim < 2:
        return 0.5 * g / cov if cov.ndim else 0.5 * g / cov[()]
    return 0.5 * g * np.transpose(np.linalg.inv(cov))


def mvn_entropy_tangent(cov_dot, cov):
    cov = np.asarray(cov)
    if cov.ndim < 2:
        return 0.5 * np.sum(cov_dot / cov)
    return 0.5 * np.sum(np.transpose(np.linalg.inv(cov)) * cov_dot)
