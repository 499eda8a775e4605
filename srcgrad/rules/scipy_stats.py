"""``scipy.stats``: densities, distribution functions and their logarithms, registered
only when SciPy imports.

A distribution here is an object (``scipy.stats.norm`` is an instance of ``norm_gen``),
so a row is keyed by the bound method itself: ``norm.logpdf`` is looked up by the
identity of ``norm`` and of the function behind ``logpdf``, never by its name, and
``t.logpdf`` is a different row.

Location-scale families are written once from their standard density ``f0`` (with
``z = (x - loc) / scale``): only ``d log f0 / dz`` and the shape parameters' partials of
``logpdf`` differ between them, for example for ``norm``::

    logpdf:  d/dx = D / scale,   d/dloc = -D / scale,   d/dscale = -(D * z + 1) / scale
    cdf:     d/dx = pdf,         d/dloc = -pdf,         d/dscale = -pdf * z
    logcdf:  the cdf's partials divided by the cdf, ``np.exp(logpdf - ans)``

with ``D = -z``. The distribution functions of a shape parameter (``t.cdf`` in ``df``)
have no closed form: those parameters are refused, never given a zero.
"""

from __future__ import annotations

try:
    import scipy.stats as st
except ImportError:  # pragma: no cover - exercised only without SciPy
    st = None

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defconstant, defelementwise

Z = "((x - loc) / scale)"

# name -> (shape parameters, d log f0 / dz, {shape parameter: d logpdf / d shape})
LOCATION_SCALE = {
    "norm": ((), "-{z}", {}),
    "cauchy": ((), "-2 * {z} / (1 + {z} ** 2)", {}),
    "laplace": ((), "-np.sign({z})", {}),
    "logistic": ((), "-np.tanh({z} / 2)", {}),
    "expon": ((), "-np.ones_like({z})", {}),
    "t": (("df",), "-(df + 1) * {z} / (df + {z} ** 2)", {
        "df": "(_sg.digamma((df + 1) / 2) - _sg.digamma(df / 2) - 1 / df "
              "- np.log1p({z} ** 2 / df) + (df + 1) * {z} ** 2 / (df * (df + {z} ** 2))) / 2"}),
    "gamma": (("a",), "(a - 1) / {z} - 1", {"a": "np.log({z}) - _sg.digamma(a)"}),
    "chi2": (("df",), "(df / 2 - 1) / {z} - 0.5", {
        "df": "(np.log({z} / 2) - _sg.digamma(df / 2)) / 2"}),
    "beta": (("a", "b"), "(a - 1) / {z} - (b - 1) / (1 - {z})", {
        "a": "np.log({z}) - _sg.digamma(a) + _sg.digamma(a + b)",
        "b": "np.log1p(-{z}) - _sg.digamma(b) + _sg.digamma(a + b)"}),
}


def _params(shapes):
    return ("x",) + shapes + ("loc=0", "scale=1")


def _call(name, method, shapes):
    """``_sg.stats_t_pdf(x, df, loc, scale)``: the same distribution's function at the
    same arguments (a runtime helper with the same row: it differentiates again)."""
    args = ", ".join(("x",) + shapes + ("loc", "scale"))
    return f"_sg.stats_{name}_{method}({args})"


def _row(name, method, partials, shapes, refuses=(), params=None):
    params = params or _params(shapes)
    defelementwise(getattr(getattr(st, name), method), *partials, params=params,
                   name=f"scipy.stats.{name}.{method}", refuses=refuses)
    helper = getattr(rt, f"stats_{name}_{method}", None)
    if helper is not None:   # the runtime's twin that the other rows call
        defelementwise(helper, *partials, params=params, refuses=refuses)


def _location_scale(name, shapes, dlogf0, shape_partials):
    d = dlogf0.format(z=Z)
    shape_terms = [shape_partials[s].format(z=Z) for s in shapes]
    log_terms = [f"({d}) / scale", *shape_terms, f"-({d}) / scale",
                 f"-(({d}) * {Z} + 1) / scale"]
    _row(name, "logpdf", log_terms, shapes)
    _row(name, "pdf", [f"ans * ({term})" for term in log_terms], shapes)
    pdf = _call(name, "pdf", shapes)
    ratio = f"np.exp({_call(name, 'logpdf', shapes)} - ans)"
    for method, base, sign in (("cdf", pdf, ""), ("sf", pdf, "-"),
                               ("logcdf", ratio, ""), ("logsf", ratio, "-")):
        opposite = "-" if sign == "" else ""
        terms = [f"{sign}{base}", *[None] * len(shapes), f"{opposite}{base}",
                 f"{opposite}{base} * {Z}"]
        _row(name, method, terms, shapes, refuses=shapes)


def _discrete():
    """``poisson(k, mu)`` and ``binom(k, n, p)``: ``k`` and ``loc`` move the mass only
    between integers (zero almost everywhere), ``n`` is an integer."""
    pois = st.poisson
    below = "_sg.stats_poisson_pmf(np.floor(k - loc), mu)"
    dlog = "(k - loc) / mu - 1"
    defelementwise(pois.logpmf, None, dlog, None, params=("k", "mu", "loc=0"),
                   name="scipy.stats.poisson.logpmf")
    _row("poisson", "pmf", (None, f"ans * ({dlog})", None), (), params=("k", "mu", "loc=0"))
    defelementwise(pois.cdf, None, f"-{below}", None, params=("k", "mu", "loc=0"),
                   name="scipy.stats.poisson.cdf")
    defelementwise(pois.sf, None, below, None, params=("k", "mu", "loc=0"),
                   name="scipy.stats.poisson.sf")
    binom = st.binom
    spec = ("k", "n", "p", "loc=0")
    dlog = "(k - loc) / p - (n - k + loc) / (1 - p)"
    below = "n * _sg.stats_binom_pmf(np.floor(k - loc), n - 1, p)"
    defelementwise(binom.logpmf, None, None, dlog, None, params=spec, refuses=("n",),
                   name="scipy.stats.binom.logpmf")
    _row("binom", "pmf", (None, None, f"ans * ({dlog})", None), (), refuses=("n",),
         params=spec)
    defelementwise(binom.cdf, None, None, f"-{below}", None, params=spec, refuses=("n",),
                   name="scipy.stats.binom.cdf")
    defelementwise(binom.sf, None, None, below, None, params=spec, refuses=("n",),
                   name="scipy.stats.binom.sf")


_INTEGER_SHIFT = ("an integer shift of a discrete distribution: the pmf is piecewise constant "
                  "in it")


# The multivariate normal's log density, with ``R`` the centred samples (n, d), ``F`` the
# covariance matrix SciPy reads from ``cov``, ``S = F^-1`` and ``W = R S``: d/dx = -W,
# d/dmean = W summed over the samples, d/dF = (W^T W - n S) / 2 (each sample weighted by
# its cotangent), written with NumPy and the rowed pieces of
# ``runtime.distribution_adjoints`` so that every order has rows.
_R = "_sg.mvn_samples(x, mean, cov)"
_F = "_sg.mvn_full_cov({}, _sg.mvn_dimension(mean, cov))"
_S = f"_sg.mvn_inverse({_F.format('cov')})"
_W = f"({_R} @ {_S})"
_G = f"(np.reshape({{}}, (-1, 1)) * np.ones((np.shape({_R})[0], 1)))"   # one weight a sample


def _mvn_terms(scale):
    """The row's templates; ``scale``: ``ans * `` for the density (``pdf``)."""
    g = _G.format(f"{scale}g")
    shaped = "np.reshape({}, np.shape(ans))"   # as SciPy squeezes the density
    return dict(
        x=f"np.reshape(-{g} * {_W}, np.shape(x))",
        mean=f"_sg.unbroadcast(np.sum({g} * {_W}, axis=0), mean)",
        cov=f"_sg.mvn_reduce_cov((np.transpose({_W}) @ ({g} * {_W}) - np.sum({g}) * {_S}) / 2,"
            " cov)",
        tangent={
            "x": scale + shaped.format(f"-np.sum({_W} * np.reshape(x_dot, np.shape({_R})), "
                                       "axis=1)"),
            "mean": scale + shaped.format(f"np.sum({_W} * mean_dot, axis=1)"),
            "cov": scale + shaped.format(
                f"(np.sum(({_W} @ {_F.format('cov_dot')}) * {_W}, axis=1) - "
                f"np.trace({_S} @ {_F.format('cov_dot')})) / 2")})


def _multivariate():
    """Dirichlet (components along the first axis) and the multivariate normal (the last
    axis of ``x``; ``cov`` a matrix, a vector of variances or one variance)."""
    for method, scale in (("logpdf", ""), ("pdf", "ans * ")):
        defadjoint(getattr(st.dirichlet, method), "x, alpha",
                   x=f"_sg.dirichlet_adjoint_x({scale}g, x, alpha)",
                   alpha=f"_sg.dirichlet_adjoint_alpha({scale}g, x, alpha)",
                   tangent={"x": f"{scale}_sg.dirichlet_tangent_x(x_dot, x, alpha)",
                            "alpha": f"{scale}_sg.dirichlet_tangent_alpha(alpha_dot, x, alpha)"},
                   name=f"scipy.stats.dirichlet.{method}")
        defadjoint(getattr(st.multivariate_normal, method),
                   "x, mean=None, cov=1, allow_singular=False",
                   name=f"scipy.stats.multivariate_normal.{method}", **_mvn_terms(scale))
    defadjoint(st.multivariate_normal.entropy, "mean=None, cov=1, allow_singular=False",
               cov="_sg.mvn_entropy_adjoint(g, cov)",
               tangent={"cov": "_sg.mvn_entropy_tangent(cov_dot, cov)"},
               name="scipy.stats.multivariate_normal.entropy"
               ).constants["mean"] = "the entropy does not depend on the mean"


def _register():
    for name, (shapes, dlogf0, shape_partials) in LOCATION_SCALE.items():
        _location_scale(name, shapes, dlogf0, shape_partials)
    _discrete()
    for family in (st.poisson, st.binom):
        for method in ("logpmf", "pmf", "cdf", "sf"):
            defconstant(getattr(family, method), loc=_INTEGER_SHIFT)
    _multivariate()


if st is not None:
    _register()
