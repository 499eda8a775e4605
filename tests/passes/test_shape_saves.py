"""A value the backward sweep reads only as ``unbroadcast``'s template is saved as its
shape (``optimize.shape_saves``): the gradient is unchanged, the loop keeps no array."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.compiler import reverse as compiler
from srcgrad.runtime import (
    SavedShape,
    mean_adjoint,
    shape_of,
    sum_adjoint,
    unbroadcast,
    zeros_like,
)
from tests.conftest import numeric_grad


def rnn(x, w, b):
    h = x
    for _ in range(6):
        h = np.tanh(h @ w + b)
    return np.sum(h)


def read_twice(x, w):
    h = x
    for _ in range(4):
        z = h * w
        h = np.sin(z) + z * 0.5
    return np.sum(h)


def mean_loop(x, w):
    total = 0.0
    h = x
    for _ in range(3):
        h = np.tanh(h * w)
        total = total + np.mean(h ** 2, axis=0)
    return np.sum(total)


def leaves(saved):
    if isinstance(saved, (list, tuple)):
        for item in saved:
            yield from leaves(item)
    else:
        yield saved


RNG = np.random.default_rng(3)
X, W, B = RNG.standard_normal((20, 4)), RNG.standard_normal((4, 4)) * 0.5, RNG.standard_normal(4)


def test_a_template_only_value_is_saved_as_its_shape():
    grad = sg.grad(rnn, (1, 2))
    assert "stack.append(_sg.shape_of(_matmul))" in sg.source(grad)
    _, saved = compiler.reverse_unit(rnn, ("w", "b")).forward(X, W, B)
    shapes = [leaf for leaf in leaves(saved) if isinstance(leaf, SavedShape)]
    assert len(shapes) == 6 and all(s.shape == (20, 4) for s in shapes)
    dw, db = grad(X, W, B)
    np.testing.assert_allclose(dw, numeric_grad(rnn, [X, W, B], 1), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(db, numeric_grad(rnn, [X, W, B], 2), rtol=1e-5, atol=1e-7)


def test_a_value_also_read_otherwise_is_saved_whole():
    grad = sg.grad(read_twice, 1)
    assert "shape_of(z)" not in sg.source(grad)
    x, w = RNG.standard_normal(3), RNG.standard_normal(3)
    np.testing.assert_allclose(grad(x, w), numeric_grad(read_twice, [x, w], 1),
                               rtol=1e-5, atol=1e-7)


G = np.arange(12.0).reshape(4, 3)


@pytest.mark.parametrize("g, x, expected", [   # (the sums written out by hand)
    (G, np.zeros((1, 3)), G.sum(axis=0, keepdims=True)),
    (np.stack([G, 2 * G]), np.zeros(3), 3 * G.sum(axis=0)),
    (G * (1 + 2j), np.zeros((4, 1)), G.sum(axis=1, keepdims=True)),
    (G[0] * (1 + 2j), np.zeros(3, dtype=complex), G[0] * (1 + 2j)),
    (np.asarray(5.0), np.zeros(()), np.asarray(5.0)),
    (G.astype(np.float32), np.zeros((4, 3)), G.astype(np.float32)),
])
def test_unbroadcast_reads_a_saved_shape_as_the_array(g, x, expected):
    for template in (x, SavedShape(x.shape, x.dtype)):
        got = unbroadcast(g, template)
        assert type(got) is np.ndarray and got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    assert shape_of(2.5) == 2.5 and shape_of(np.float64(1.0)) == 1.0


def test_shape_of_keeps_small_arrays_and_saves_the_shape_of_larger_ones():
    small, large = np.ones(64), np.ones((5, 13), dtype=np.float32)
    assert shape_of(small) is small   # as small as its SavedShape: kept as it is
    saved = shape_of(large)
    assert type(saved) is SavedShape and saved.shape == (5, 13) and saved.dtype == np.float32


def test_mean_adjoints_argument_is_saved_as_its_shape():
    grad = sg.grad(mean_loop, 1)
    assert "stack.append(_sg.shape_of(_pow))" in sg.source(grad)
    x, w = RNG.standard_normal((4, 3)), RNG.standard_normal(3)
    np.testing.assert_allclose(grad(x, w), numeric_grad(mean_loop, [x, w], 1),
                               rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("a, axis, keepdims", [
    (np.ones((3, 4)), None, False),
    (np.ones((3, 4)), 1, False),
    (np.ones((3, 4), dtype=np.float32), (0, 1), True),
    (np.arange(6).reshape(2, 3), 0, False),
])
def test_reductions_and_zeros_read_a_saved_shape_as_the_array(a, axis, keepdims):
    g = 2.0 if axis is None else np.ones(np.sum(a, axis=axis, keepdims=keepdims).shape)
    count = a.size if axis is None else np.prod([a.shape[i] for i in np.atleast_1d(axis)])
    dtype = a.dtype if a.dtype.kind == "f" else np.float64
    spread = np.full(a.shape, 2.0 if axis is None else 1.0, dtype=dtype)   # g, everywhere
    for template in (a, SavedShape(a.shape, a.dtype)):
        summed, mean = sum_adjoint(g, template, axis, keepdims), \
            mean_adjoint(g, template, axis, keepdims)
        assert summed.dtype == dtype and mean.dtype == dtype
        np.testing.assert_array_equal(summed, spread)
        np.testing.assert_allclose(mean, spread / count, rtol=1e-6)
        zeros = zeros_like(template)
        assert zeros.dtype == dtype and zeros.shape == a.shape and not zeros.any()
