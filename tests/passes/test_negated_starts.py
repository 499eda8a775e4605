"""A negated first contribution and the next one, added in place, become one difference
(``optimize.negated_starts``): the same numbers to the last bit, checked against finite
differences and against the unfolded arithmetic."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.optimize.negated_starts import fold_negated_scalings, fold_negated_starts
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


# -- a negation read only by a scaling by a number (fold_negated_scalings) -----------------
def test_the_pass_folds_a_negation_into_its_only_scaling():
    body = statements("""
        d1 = -_sg.unbroadcast(g, m)
        t = f1 * 2
        z1 = d1 * 2
        d2 = -a2
        z2 = 0.5 * d2
        d3 = -a3
        z3 = d3 / 4.0
        d4 = -a4
        z4 = d4 * 2
        w4 = d4 + 1
        d5 = -a5
        a5 = g * 2
        z5 = d5 * 2
        d6 = -a6
        z6 = d6 * c
        d7 = -a7
        z7 = 2 / d7
        d8 = -a8
        _sg.add_at(a8, 0, c)
        z8 = d8 * 2
        d9 = -user_function(a9)
        z9 = d9 * 2
        d10 = -a10
        z10 = d10 * 3
    """)
    assert show(fold_negated_scalings(body, keep={"d10"})) == expect("""
        t = f1 * 2
        z1 = _sg.unbroadcast(g, m) * -2
        z2 = -0.5 * a2
        z3 = a3 / -4.0
        d4 = -a4
        z4 = d4 * 2
        w4 = d4 + 1
        d5 = -a5
        a5 = g * 2
        z5 = d5 * 2
        d6 = -a6
        z6 = d6 * c
        d7 = -a7
        z7 = 2 / d7
        d8 = -a8
        _sg.add_at(a8, 0, c)
        z8 = d8 * 2
        d9 = -user_function(a9)
        z9 = d9 * 2
        d10 = -a10
        z10 = d10 * 3
    """)


def squared_distances(points, centroids):
    d = np.sum(points ** 2, axis=1)[None, :] + np.sum(centroids ** 2, axis=1)[:, None] \
        - 2 * (centroids @ points.T)
    return np.sum(np.min(d, axis=0)) - np.sum(3.0 * centroids - centroids / 2.0)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_folded_scalings_against_finite_differences(dtype):
    points = RNG.standard_normal((7, 2)).astype(dtype)
    centroids = RNG.standard_normal((3, 2)).astype(dtype)
    df = sg.grad(squared_distances, wrt=1)
    assert "* -2" in sg.source(df)
    for _ in range(2):
        got = df(points, centroids)
        assert got.dtype == dtype
        tol = 1e-6 if dtype == np.float64 else 2e-3
        np.testing.assert_allclose(got, numeric_grad(
            squared_distances, [points.astype(float), centroids.astype(float)], 1),
            rtol=tol, atol=tol)


def test_a_negated_product_is_the_product_with_the_negated_number_bit_for_bit():
    a = RNG.standard_normal(1000) * 1e3
    a[:2] = [0.0, -0.0]
    for c in (2, 0.5, -3.0):
        assert np.array_equal(np.signbit((-a) * c), np.signbit(a * -c))
        assert np.array_equal((-a) * c, a * -c) and np.array_equal((-a) / c, a / -c)
