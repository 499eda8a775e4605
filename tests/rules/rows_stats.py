"""Test rows for scipy.stats (present only when SciPy imports): every function of every
distribution, differentiated in every float argument it has a derivative in."""

import numpy as np

from tests.rules.harness import In, normal, positive, row, spd, uniform

try:
    import scipy.stats as st
except ImportError:  # pragma: no cover
    st = None

CONTINUOUS = ("logpdf", "pdf", "logcdf", "cdf", "sf", "logsf")
DENSITIES = ("logpdf", "pdf")

# name -> (x, shape parameters, loc, scale): inputs inside the support.
FAMILIES = {
    "norm": (normal(4), (), uniform(-0.5, 0.5), uniform(0.8, 1.5)),
    "cauchy": (normal(4), (), uniform(-0.5, 0.5), uniform(0.8, 1.5)),
    "laplace": (normal(4), (), uniform(-0.5, 0.5), uniform(0.8, 1.5)),
    "logistic": (normal(4), (), uniform(-0.5, 0.5), uniform(0.8, 1.5)),
    "expon": (uniform(0.6, 2.0, 4), (), uniform(-0.5, 0.4), uniform(0.8, 1.5)),
    "t": (normal(4), (uniform(2.0, 6.0),), uniform(-0.5, 0.5), uniform(0.8, 1.5)),
    "gamma": (uniform(0.6, 3.0, 4), (uniform(1.5, 3.0),), uniform(-0.5, 0.4),
              uniform(0.8, 1.5)),
    "chi2": (uniform(0.6, 3.0, 4), (uniform(2.5, 5.0),), uniform(-0.5, 0.4),
             uniform(0.8, 1.5)),
    "beta": (uniform(0.1, 0.9, 4), (uniform(1.5, 3.0), uniform(1.5, 3.0)),
             uniform(-0.05, 0.0), uniform(1.05, 1.2)),
}


def _fixed(spec):
    """The same draw, held constant (shape parameters of the distribution functions)."""
    return In(spec.make, diff=False, label=f"const {spec.label}")


def _family_rows(name, method):
    x, shapes, loc, scale = FAMILIES[name]
    fn = getattr(getattr(st, name), method)
    if method not in DENSITIES:
        shapes = tuple(_fixed(s) for s in shapes)
    calls = {0: lambda x, loc, scale: fn(x, loc, scale),
             1: lambda x, s, loc, scale: fn(x, s, loc, scale),
             2: lambda x, a, b, loc, scale: fn(x, a, b, loc, scale)}
    rows = [row(f"scipy.stats.{name}.{method}", calls[len(shapes)], x, *shapes, loc, scale)]
    if not shapes:
        rows.append(row(f"scipy.stats.{name}.{method}", lambda x: fn(x), normal(3)
                        if name not in ("expon",) else positive(3), note="standard"))
    return rows


def _simplex(rng):
    x = rng.uniform(0.5, 2.0, (3, 2))
    return x / np.sum(x, axis=0)


def _on_the_simplex(fn):
    """Dirichlet checks that x sums to one: differentiate through a normalization."""
    return lambda x, alpha: fn(x / np.sum(x, axis=0), alpha)


MULTIVARIATE = [] if st is None else [
    row("scipy.stats.dirichlet.logpdf", _on_the_simplex(st.dirichlet.logpdf),
        In(_simplex, label="simplex(3, 2)"), positive(3)),
    row("scipy.stats.dirichlet.pdf", _on_the_simplex(st.dirichlet.pdf),
        In(_simplex, label="simplex(3, 2)"), positive(3)),
    row("scipy.stats.dirichlet.logpdf", lambda alpha: st.dirichlet.logpdf(
        np.array([0.2, 0.3, 0.5]), alpha), positive(3), note="one sample, alpha"),
    row("scipy.stats.multivariate_normal.logpdf",
        lambda x, mean, a: st.multivariate_normal.logpdf(x, mean, a @ a.T + np.eye(3)),
        normal(4, 3), normal(3), normal(3, 3)),
    row("scipy.stats.multivariate_normal.logpdf",
        lambda x, mean, cov: st.multivariate_normal.logpdf(x, mean, cov), normal(3),
        normal(3), spd(3), note="one sample, symmetric"),
    row("scipy.stats.multivariate_normal.logpdf",
        lambda x, variances: st.multivariate_normal.logpdf(x, np.zeros(2), variances),
        normal(5, 2), positive(2), note="diagonal cov"),
    row("scipy.stats.multivariate_normal.logpdf",
        lambda x, variance: st.multivariate_normal.logpdf(x, cov=variance), normal(4),
        positive(), note="scalar cov"),
    row("scipy.stats.multivariate_normal.pdf",
        lambda x, mean, a: st.multivariate_normal.pdf(x, mean, a @ a.T + np.eye(2)),
        normal(3, 2), normal(2), normal(2, 2)),
]

DISCRETE = [] if st is None else [
    row("scipy.stats.poisson.logpmf", lambda mu: st.poisson.logpmf(np.array([0, 2, 5]), mu),
        positive(3)),
    row("scipy.stats.poisson.pmf", lambda mu: st.poisson.pmf(np.array([0, 2, 5]), mu),
        positive(3)),
    row("scipy.stats.poisson.cdf", lambda mu: st.poisson.cdf(np.array([0, 2.5, 5]), mu),
        positive(3)),
    row("scipy.stats.poisson.sf", lambda mu: st.poisson.sf(np.array([0, 2, 5]), mu, 1),
        uniform(1.0, 4.0, 3), note="loc"),
    row("scipy.stats.binom.logpmf", lambda p: st.binom.logpmf(np.array([0, 2, 5]), 6, p),
        uniform(0.2, 0.8, 3)),
    row("scipy.stats.binom.pmf", lambda p: st.binom.pmf(np.array([0, 2, 5]), 6, p, 1),
        uniform(0.2, 0.8, 3), note="loc"),
    row("scipy.stats.binom.cdf", lambda p: st.binom.cdf(np.array([0, 2.5, 5]), 6, p),
        uniform(0.2, 0.8, 3)),
    row("scipy.stats.binom.sf", lambda p: st.binom.sf(np.array([0, 2, 5]), 6, p),
        uniform(0.2, 0.8, 3)),
]

# Frozen distributions: ``st.norm(loc, scale).logpdf(x)`` is the row of ``st.norm.logpdf``
# at the frozen arguments (positional or keywords).
FROZEN = [] if st is None else [
    row("scipy.stats.norm.logpdf", lambda x, loc, scale: st.norm(loc, scale).logpdf(x),
        normal(4), uniform(-0.5, 0.5), uniform(0.8, 1.5), note="frozen"),
    row("scipy.stats.t.cdf", lambda x, loc: st.t(3.0, loc=loc).cdf(x), normal(4),
        uniform(-0.5, 0.5), note="frozen, keyword"),
    row("scipy.stats.gamma.logpdf", lambda x, a, scale: st.gamma(a, scale=scale).logpdf(x),
        uniform(0.6, 3.0, 4), uniform(1.5, 3.0), uniform(0.8, 1.5), note="frozen, shape"),
    row("scipy.stats.poisson.logpmf", lambda mu: st.poisson(mu).logpmf(np.array([0, 2, 5])),
        positive(3), note="frozen"),
    row("scipy.stats.dirichlet.logpdf",
        lambda alpha: st.dirichlet(alpha).logpdf(np.array([0.2, 0.3, 0.5])), positive(3),
        note="frozen"),
    row("scipy.stats.multivariate_normal.logpdf",
        lambda x, mean, a: st.multivariate_normal(mean, a @ a.T + np.eye(3)).logpdf(x),
        normal(4, 3), normal(3), normal(3, 3), note="frozen"),
]

ROWS = [] if st is None else [
    r for name in FAMILIES for method in CONTINUOUS for r in _family_rows(name, method)
] + MULTIVARIATE + DISCRETE + FROZEN
