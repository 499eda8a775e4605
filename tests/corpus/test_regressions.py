"""Focused checks of gradients that came back silently wrong (zeros, or misshapen) for
ordinary Python, each against finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

X = np.array([0.3, -0.5, 0.8])
Y = np.array([1.0, 2.0, -0.4])


def enumerate_zip_reversed(x, y):
    acc = 0.0
    for i, (a, b) in enumerate(zip(x, y), start=1):
        acc = acc + i * a * b ** 2
    for v in reversed(x):
        acc = acc * 0.5 + v
    return acc + sum(a * b for a, b in zip(y, x))


def enumerate_keyword_start(x):
    return sum(k * v ** 2 for k, v in enumerate(x, start=2))


def attribute_chain_method(m):
    return m.T.reshape(-1).cumsum().max() + m.T.sum()


@pytest.mark.parametrize("fn, args, index", [
    (enumerate_zip_reversed, (X, Y), 0),
    (enumerate_zip_reversed, (X, Y), 1),
    (enumerate_keyword_start, (X,), 0),
    (attribute_chain_method, (np.array([[0.2, -0.4, 0.6], [0.5, 0.1, -0.3]]),), 0),
])
def test_items_of_builtin_iterators_and_attribute_chains(fn, args, index):
    gradient = sg.grad(fn, wrt=index)(*args)
    np.testing.assert_allclose(gradient, numeric_grad(fn, args, index), rtol=1e-6, atol=1e-8)
