"""A negated first contribution and the next one, added in place, become one difference
(``optimize.negated_starts``): the same numbers to the last bit, checked against finite
differences and against the unfolded arithmetic."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.optimize.negated_starts import fold_negated_starts
from tests.conftest import numeric_grad
from tests.passes.helpers import expect, show, statements


def logistic(w, X, y):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    return -np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))


RNG = np.random.default_rng(37)


def test_the_pass_folds_only_an_untouched_pair():
    body = statements("""
        d1 = -a1
        t = f1 * 2
        d1 += t / 3
        d2 = -a2
        a2 = g * 2
        d2 += e
        d3 = -a3
        _sg.add_at(b, 0, c)
        d3 += e
        d4 = -a4
        d4 += d4 * 2
        d5 = -a5
        u = d5 + 1
        d5 += e
        d6 = -a6
        d6 += user_function(e)
        d7 = -a7
        d7 -= e
    """)
    assert show(fold_negated_starts(body)) == expect("""
        t = f1 * 2
        d1 = t / 3 - a1
        d2 = -a2
        a2 = g * 2
        d2 += e
        d3 = -a3
        _sg.add_at(b, 0, c)
        d3 += e
        d4 = -a4
        d4 += d4 * 2
        d5 = -a5
        u = d5 + 1
        d5 += e
        d6 = -a6
        d6 += user_function(e)
        d7 = -a7
        d7 -= e
    """)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("wrt", [0, 2])
def test_logistic_regression_against_finite_differences(dtype, wrt):
    X = RNG.standard_normal((6, 3)).astype(dtype)
    args = [RNG.standard_normal(3).astype(dtype) / 3, X, (RNG.random(6) > 0.5).astype(dtype)]
    df = sg.grad(logistic, wrt)
    if wrt == 0:
        assert "dp = d_log / p - d_sub_1" in sg.source(df)
    got = df(*args)
    assert got.dtype == dtype
    tol = 1e-6 if dtype == np.float64 else 2e-3
    np.testing.assert_allclose(got, numeric_grad(logistic, [a.astype(float) for a in args],
                                                 wrt), rtol=tol, atol=tol)


def test_the_difference_is_the_sum_with_the_negation_bit_for_bit():
    a, e = RNG.standard_normal(1000) * 1e3, RNG.standard_normal(1000)
    a[:3], e[:3] = 0.0, [0.0, -0.0, 5.0]
    d = -a
    d += e
    np.testing.assert_array_equal(np.signbit(d), np.signbit(e - a))
    assert np.array_equal(d, e - a)
