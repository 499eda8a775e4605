"""Focused checks of gradients that came back silently wrong (zeros, or misshapen) for
ordinary Python, each against finite differences."""

import typing

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


class Layer:
    def __init__(self, W):
        self.W = W


class Net:
    def __init__(self, layers):
        self.layers = layers


def layers_by_index(net, x):
    for i in range(len(net.layers)):
        x = np.tanh(net.layers[i].W @ x)
    return np.sum(x)


def test_attribute_of_list_item_read_in_each_iteration():
    net = Net([Layer(np.array([[0.5, -0.2], [0.3, 0.9]])), Layer(np.array([[0.7, 0.4]]))])
    gradient = sg.grad(layers_by_index)(net, np.array([0.6, -1.1]))
    assert isinstance(gradient, Net) and isinstance(gradient.layers, list)
    for k, layer in enumerate(net.layers):
        def along(W, k=k):
            layers = [Layer(w) for w in (W if j == k else lay.W
                                         for j, lay in enumerate(net.layers))]
            return layers_by_index(Net(layers), np.array([0.6, -1.1]))

        expected = numeric_grad(along, [layer.W], 0)
        np.testing.assert_allclose(gradient.layers[k].W, expected, rtol=1e-6, atol=1e-8)


class Pair(typing.NamedTuple):
    w: np.ndarray
    b: float


def unpacked_tuple(pair):
    a, b = pair
    return np.sum(a * b)


def unpacked_namedtuple(p):
    w, b = p
    return np.sum(w ** 2) * b


def test_unpacked_arguments_keep_their_structure():
    gradient = sg.grad(unpacked_tuple)((X, Y))
    assert isinstance(gradient, tuple)
    np.testing.assert_allclose(gradient[0], Y)
    np.testing.assert_allclose(gradient[1], X)
    gradient = sg.grad(unpacked_namedtuple)(Pair(X, 1.5))
    assert isinstance(gradient, Pair)
    np.testing.assert_allclose(gradient.w, 3.0 * X)
    assert gradient.b == pytest.approx(np.sum(X ** 2))


def statistics_methods(m):
    return m.std() + m.var(axis=0, ddof=1).sum() + (m.astype(np.float64) ** 3).sum()


def test_std_var_and_astype_methods():
    m = np.array([[0.2, -0.4, 0.6], [0.5, 0.1, -0.3]])
    gradient = sg.grad(statistics_methods)(m)
    np.testing.assert_allclose(gradient, numeric_grad(statistics_methods, [m], 0),
                               rtol=1e-6, atol=1e-8)


def test_mean_along_an_axis_keeps_float32():
    m = np.array([[0.2, -0.7, 1.1], [0.9, 0.4, -0.3]], dtype=np.float32)
    gradient = sg.grad(lambda m: m.mean(axis=0).sum() * m.sum())(m)
    assert gradient.dtype == np.float32
