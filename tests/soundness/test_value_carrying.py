"""Functions that look like bookkeeping but carry values: gradients (reverse and forward
mode) against central differences, or a MissingRuleError where srcgrad has no rule."""

import math

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import MissingRuleError
from tests.conftest import numeric_grad

X = np.array([.3, .7, 1.1])
LABELS = np.array([0, 2, 2])


def copysign_math(x):
    return math.copysign(x[0] * 2.0, x[1] - 1.0) + math.copysign(x[2], 1.0) * x[1]


def copysign_numpy(x):
    return np.sum(np.copysign(x * x, x - 0.5))


def arange_start_step(x):
    return np.sum(np.arange(x[0], 4.0, x[1]) ** 2)


def arange_one_argument(x):
    return np.sum(np.arange(x[2] * 4.0) * x[0])


def bincount_weights(x):
    return np.sum(np.bincount(LABELS, weights=x * x, minlength=4) * np.arange(1.0, 5.0))


def heaviside_value(x):
    return np.sum(np.heaviside(x - x[1], x * 3.0))


def fftfreq_spacing(x):
    return np.sum(np.fft.fftfreq(4, x[1]) ** 2) + np.sum(np.fft.rfftfreq(5, d=x[0]))


def tolist_items(x):
    items = (x * x).tolist()
    return items[0] * 2.0 + items[2]


CARRIERS = [copysign_math, copysign_numpy, arange_start_step, arange_one_argument,
            bincount_weights, heaviside_value, fftfreq_spacing, tolist_items]


@pytest.mark.parametrize("f", CARRIERS, ids=lambda f: f.__name__)
def test_reverse_matches_differences(f):
    expected = numeric_grad(f, [X], 0)
    assert np.any(expected != 0.0) or f is arange_one_argument
    np.testing.assert_allclose(sg.grad(f)(X), expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("f", CARRIERS, ids=lambda f: f.__name__)
def test_forward_matches_differences(f):
    v = np.array([0.5, -1.0, 2.0])
    expected = float(np.sum(numeric_grad(f, [X], 0) * v))
    _, derivative = sg.jvp(f)(X, v)
    np.testing.assert_allclose(derivative, expected, rtol=1e-5, atol=1e-7)


def unique_values(x):
    return np.sum(np.unique(x * 2.0) ** 2)


def meshgrid_values(x):
    a, b = np.meshgrid(x, x * 2.0)
    return np.sum(a * b)


def histogram_weights(x):
    counts, _ = np.histogram(LABELS, bins=3, weights=x)
    return np.sum(counts * counts)


def histogram_edges(x):
    _, edges = np.histogram(x, bins=2)
    return np.sum(edges)


def random_draw(x):
    return np.sum(np.random.normal(x, 1.0))


# zip/enumerate over expressions and as values are differentiated (test_iteration.py).
REFUSED = [unique_values, meshgrid_values, histogram_weights, histogram_edges, random_draw]


@pytest.mark.parametrize("f", REFUSED, ids=lambda f: f.__name__)
def test_refused_where_values_flow(f):
    np.random.seed(0)
    assert np.any(numeric_grad(lambda x: (np.random.seed(0), f(x))[1], [X], 0) != 0.0)
    with pytest.raises(MissingRuleError):
        sg.grad(f)(X)
    with pytest.raises(MissingRuleError):
        sg.jvp(f)(X, np.ones(3))


def counts_of_constants(x, labels):
    counts = np.bincount(labels)
    grid, _ = np.meshgrid(np.arange(3.0), np.arange(2.0))
    return np.sum(x * counts[:3]) + np.sum(grid) * x[0] + np.sum(np.unique(labels)) * x[1]


def test_constant_arguments_still_work():
    labels = np.array([0, 1, 1, 2])
    expected = numeric_grad(counts_of_constants, [X, labels], 0)
    np.testing.assert_allclose(sg.grad(counts_of_constants)(X, labels), expected, rtol=1e-6)
