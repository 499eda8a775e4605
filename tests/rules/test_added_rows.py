"""The rows for np.gradient, np.select, scalar-type casts, convolutions, window views,
solve_sylvester, solve_banded and the multivariate normal's entropy beyond the row
checks: complex inputs (finite differences in the real and the imaginary directions),
second order (the Hessian against finite differences of the gradient), and Bessel
functions' order refused by name in both modes.
"""

import numpy as np
import pytest
import scipy.linalg
import scipy.signal
import scipy.special
import scipy.stats
from numpy.lib.stride_tricks import as_strided, sliding_window_view

import srcgrad as sg

RNG = np.random.default_rng(11)
W5 = RNG.standard_normal(5)
W34 = RNG.standard_normal((3, 4))
W_WINDOWS = RNG.standard_normal((2, 3, 2, 2))
BAND = np.array([[0.0, 0.4, -0.2, 0.3, 0.1], [3.5, 3.1, 3.8, 3.3, 3.6],
                 [0.2, -0.3, 0.1, 0.4, 0.0]])
A3 = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
B2 = RNG.standard_normal((2, 2)) + 3 * np.eye(2)

# (name, f of one array, shape, complex inputs allowed)
CASES = [
    ("gradient", lambda x: np.sum(np.abs(np.gradient(x) * W5) ** 2), (5,), True),
    ("gradient 2-d", lambda x: np.sum(np.abs(np.gradient(x, 0.5)[1] * W34) ** 2), (3, 4), True),
    ("select", lambda x: np.sum(np.abs(np.select([np.real(x) > 0], [x * x], x ** 3)) ** 2),
     (5,), True),
    ("float64", lambda x: np.float64(x) ** 3, (), False),
    ("complex128", lambda x: np.abs(np.complex128(x) * (1 + 2j)) ** 2, (), True),
    ("int64 truncates", lambda x: np.int64(3.7) * x ** 2 + np.sum(np.int64(x)), (), False),
    ("np.convolve", lambda x: np.sum(np.abs(np.convolve(x, W5[:3], "same")) ** 2), (5,), True),
    ("signal.convolve", lambda x: np.sum(np.abs(scipy.signal.convolve(x, W34[:2, :2])) ** 2),
     (3, 4), True),
    ("sliding_window_view", lambda x: np.sum(np.abs(sliding_window_view(x, (2, 2))
                                                    * W_WINDOWS) ** 2), (3, 4), True),
    ("as_strided", lambda x: np.sum(np.abs(as_strided(x, (4, 3), (8, 8))) ** 2 * W5[:3]),
     (6,), False),
    ("solve_sylvester", lambda x: np.sum(scipy.linalg.solve_sylvester(A3, B2, x) ** 2),
     (3, 2), False),
    ("solve_banded", lambda x: np.sum(scipy.linalg.solve_banded((1, 1), BAND, x) ** 3),
     (5,), False),
    ("entropy", lambda x: scipy.stats.multivariate_normal.entropy(cov=np.diag(x ** 2) + 1.0),
     (3,), False),
]


def _fd(f, x, v, eps=1e-6):
    return (f(x + eps * v) - f(x - eps * v)) / (2 * eps)


def _point(shape, complex_):
    x = RNG.standard_normal(shape) + 0.5
    return x + 1j * RNG.standard_normal(shape) if complex_ else x


@pytest.mark.parametrize("complex_", [False, True], ids=["real", "complex"])
@pytest.mark.parametrize("name, f, shape, allows_complex", CASES, ids=[c[0] for c in CASES])
def test_first_order(name, f, shape, allows_complex, complex_):
    if complex_ and not allows_complex:
        pytest.skip("defined for real inputs")
    x = _point(shape, complex_)
    g = sg.grad(f)(x)
    directions = [RNG.standard_normal(shape)] + ([1j * RNG.standard_normal(shape)]
                                                 if complex_ else [])
    for v in directions:
        numeric = _fd(f, x, v)
        assert np.isclose(np.real(np.sum(g * v)), numeric, rtol=1e-5, atol=1e-6)
        assert np.isclose(sg.jvp(f)(x, v)[1], numeric, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name, f, shape, allows_complex", CASES, ids=[c[0] for c in CASES])
def test_second_order(name, f, shape, allows_complex):
    x = _point(shape, False)
    grad = sg.grad(f)
    v = RNG.standard_normal(shape)
    numeric = np.ravel((np.asarray(grad(x + 1e-5 * v)) - np.asarray(grad(x - 1e-5 * v))) / 2e-5)
    size = int(np.prod(shape, dtype=int))
    hessian = np.reshape(sg.hessian(f)(x), (size, size))
    np.testing.assert_allclose(hessian @ np.ravel(v), numeric, rtol=1e-4, atol=1e-5)


def bessel_order(v):
    return scipy.special.iv(v, 1.5) + scipy.special.ive(v, 2.5)


@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_a_bessel_order_is_refused_by_name(mode):
    with pytest.raises(sg.MissingRuleError, match="(iv|ive)` with respect to its argument `v`"):
        if mode == "grad":
            sg.grad(bessel_order)(0.7)
        else:
            sg.jvp(bessel_order)(0.7, 1.0)


def test_float16_is_refused_not_zeroed():
    with pytest.raises(sg.MissingRuleError, match="float16"):
        sg.grad(lambda x: np.float16(x) * x)(0.5)
