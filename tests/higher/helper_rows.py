"""Test rows that call runtime helpers directly (``tests.higher.test_helper_rows``): each
names the helper (``srcgrad.runtime.<name>``), a function calling it, and its inputs, as
``tests.rules.harness`` rows do for NumPy's functions."""

import numpy as np

try:
    import scipy.stats as st
except ImportError:  # pragma: no cover - SciPy is optional
    st = None

from srcgrad import runtime as rt
from tests.rules.harness import In, normal, positive, row, scalar, uniform


def _name(helper):
    return f"srcgrad.runtime.{helper.__name__}"


def _complex(draw):
    """A complex argument (real and imaginary parts drawn alike)."""
    def make(rng):
        return draw(rng) + 1j * draw(rng)
    return make


def _helper(helper, fn, *inputs, max_order=3, **options):
    """A row calling ``helper``; ``max_order``: the highest order it is checked at."""
    found = row(_name(helper), fn, *inputs, **options)
    found.max_order = max_order
    return found


# (a constant the function reads, not one it computes: a value computed in the function is
# a residual of its gradient, and the gradient differentiated again cannot tell it from a
# differentiated one, so the refused derivative in the order is refused)
_ORDERS = np.array([0.0, 1.0, 2.0])
_SAMPLES = np.array([[0.3, -1.2], [1.5, 0.4], [-0.7, 0.2]])

def _bessel_call(name, v):
    return lambda x: rt.bessel(name, v, x)


def _prod_tangent_call(axis, keepdims, zero):
    return lambda t, a: rt.prod_tangent(t, a * zero, axis, keepdims)


FLOATS = [
    _helper(rt.divide, lambda a, b: rt.divide(a, b), scalar(-1.0, 1.0), scalar(0.5, 2.0)),
    _helper(rt.power, lambda a, b: rt.power(a, b), scalar(0.5, 2.0), scalar(-1.5, 2.5)),
    _helper(rt.float64, lambda x: rt.float64(x) ** 3, scalar()),
    _helper(rt.float64_cotangent, lambda x: rt.float64_cotangent(x) ** 3, scalar()),
]

SPECIAL = [] if st is None else [
    _helper(rt.scalar_digamma, lambda x: rt.scalar_digamma(x), scalar(0.3, 8.0)),
    _helper(rt.scalar_digamma, lambda x: rt.scalar_digamma(x), scalar(-0.8, -0.2),
            note="reflection"),
    _helper(rt.scalar_polygamma, lambda x: rt.scalar_polygamma(2, x), scalar(0.5, 3.0)),
    _helper(rt.multidigamma, lambda a: rt.multidigamma(a, 3), uniform(2.0, 4.0, 3)),
    _helper(rt.multipolygamma, lambda a: rt.multipolygamma(1, a, 2), uniform(2.0, 4.0, 3)),
    _helper(rt.betaln, lambda a, b: rt.betaln(a, b), positive(3), positive(3)),
    _helper(rt.zeta, lambda q: rt.zeta(3.5, q), positive(3)),
] + [
    _helper(rt.bessel, _bessel_call(name, v), domain,
            note=f"{name}({v}), {domain.label}")
    for name, v, domain in (("jv", 1.0, normal(4)), ("jv", 1.5, positive(4)),
                            ("yv", 1.5, positive(4)), ("iv", 1.0, normal(4)),
                            ("kv", 1.5, positive(4)), ("ive", 1.0, normal(4)),
                            ("ive", 2.5, positive(4)))
] + [
    _helper(rt.bessel, _bessel_call(name, 1.0),
            In(_complex(lambda rng: rng.uniform(0.5, 1.5, 3)), label="complex(3,)"),
            note=f"{name}, complex")
    for name in ("jv", "iv", "kv", "ive")
] + [
    _helper(rt.bessel, lambda x: rt.bessel("jv", _ORDERS, x), normal(3),
            note="jv, orders 0 to 2"),
]

_A_ZERO = np.array([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]])   # (a product with a zero factor)
_AXES = ((None, False), (1, False), (0, True))


def _complex_normal(*shape):
    return In(_complex(lambda rng: rng.standard_normal(shape)), label=f"complex{shape}")


# np.prod at orders 2 and 3 goes through every helper of its derivatives (the third
# derivative through prod_adjoint_third and prod_second); the helpers called directly
# are checked where their own derivative stays within the third of the product (a
# fourth is refused: ``prod_third``'s row refuses ``a``).
PRODUCTS = [
    row("numpy.prod", lambda a: np.prod(a, axis=(0, 2), keepdims=True), normal(2, 3, 2),
        note="axes (0, 2), keepdims"),
    row("numpy.prod", lambda a: np.prod(a * _A_ZERO, axis=1), normal(2, 3), note="a zero"),
    row("numpy.prod", lambda a: np.prod(a), _complex_normal(2, 2), note="complex"),
    row("numpy.prod", lambda a: np.prod(a * _A_ZERO, axis=0), _complex_normal(2, 3),
        note="complex, a zero"),
] + [
    _helper(rt.prod_tangent, _prod_tangent_call(axis, keepdims, zero), normal(2, 3), normal(2, 3),
        note=f"axis={axis}, keepdims={keepdims}" + (", a zero" if zero is _A_ZERO else ""),
        max_order=2)
    for (axis, keepdims), zero in zip(_AXES, (1.0, _A_ZERO, 1.0))
] + [
    _helper(rt.prod_adjoint, lambda v, a: rt.prod_adjoint(
        v, a, np.prod(a, axis=0, keepdims=True), 0, True), normal(1, 3), normal(2, 3),
        max_order=2),
    _helper(rt.prod_tangent, lambda t, a: rt.prod_tangent(t, a, None, False),
            _complex_normal(2, 2), _complex_normal(2, 2), note="complex", max_order=2),
]

# Dirichlet (its rows' matrix: tests.rules.rows_stats): one sample of x, differentiated
# with the concentrations.
DISTRIBUTIONS = [] if st is None else [
    row("scipy.stats.dirichlet.logpdf", lambda x, alpha: st.dirichlet.logpdf(
        x / np.sum(x), alpha), positive(3), positive(3), note="one sample"),
    row("scipy.stats.dirichlet.pdf", lambda x, alpha: st.dirichlet.pdf(
        x / np.sum(x, axis=0), alpha), positive(2, 4), positive(2), note="four samples"),
]



def _spd(n):
    def make(rng):
        a = rng.standard_normal((n, n))
        return a @ a.T / n + np.eye(n)
    return In(make, label=f"spd({n}, {n})")


# The multivariate normal w.r.t. its covariance (each form SciPy reads) and its entropy;
# the pieces their rows are written with.
MULTIVARIATE = [] if st is None else [
    row("scipy.stats.multivariate_normal.logpdf", lambda x, mean, cov: (
        st.multivariate_normal.logpdf(x, mean, cov)), normal(3), normal(3), _spd(3),
        note="one sample, symmetric"),
    row("scipy.stats.multivariate_normal.pdf", lambda cov: st.multivariate_normal.pdf(
        _SAMPLES, np.zeros(2), cov), positive(2), note="variances"),
    row("scipy.stats.multivariate_normal.logpdf", lambda cov: (
        st.multivariate_normal.logpdf(_SAMPLES, np.ones(2), cov)), positive(), note="one variance"),
    row("scipy.stats.multivariate_normal.entropy", lambda c: (
        st.multivariate_normal.entropy(cov=(c + c.T) / 2)), _spd(3)),
    row("scipy.stats.multivariate_normal.entropy", lambda c: (
        st.multivariate_normal.entropy(np.zeros(2), c)), positive(2), note="variances"),
    _helper(rt.mvn_inverse, lambda f: rt.mvn_inverse(f), _spd(3)),
    _helper(rt.mvn_entropy_inverse, lambda c: rt.mvn_entropy_inverse(c), _spd(2)),
    _helper(rt.mvn_full_cov, lambda c: rt.mvn_full_cov(c, 3) ** 2, normal(3, 3)),
]

ROWS = FLOATS + SPECIAL + PRODUCTS + DISTRIBUTIONS + MULTIVARIATE
