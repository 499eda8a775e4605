"""The short paths of the runtime's adjoints (a float's cotangent summed in one call, the
mean's adjoint filled with g / count, 2-D matrix products) give the general path's
numbers bit for bit, and gradients through them match finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.runtime import adjoints, core
from srcgrad.runtime.core import SavedShape, sum_to_shape
from tests.conftest import numeric_grad

RNG = np.random.default_rng(11)


def general_unbroadcast(g, x):
    """What ``unbroadcast`` computed for a float template before its short path."""
    g = sum_to_shape(g, ())
    return g[()] if g.ndim == 0 else g


@pytest.mark.parametrize("g", [
    np.asarray(2.5), RNG.standard_normal(7), RNG.standard_normal(1000),
    RNG.standard_normal((30, 40)), RNG.standard_normal((30, 40)).T,
    RNG.standard_normal((4, 5)).astype(np.float32), np.empty((0, 3)),
])
def test_a_float_templates_cotangent_is_the_sum_of_all_items(g):
    got = core.unbroadcast(g, 0.5)
    expected = general_unbroadcast(g, 0.5)
    assert type(got) is type(expected) and np.ndim(got) == 0
    assert got.dtype == g.dtype and (got == expected or np.isnan(expected))


def test_a_complex_cotangent_of_a_float_keeps_the_real_part():
    g = np.array([1 + 2j, 3 - 1j])
    assert core.unbroadcast(g, 0.5) == 4.0


def general_mean_adjoint(g, a):
    out = np.full(np.shape(a), g, dtype=a.dtype)
    out /= a.size
    return out


@pytest.mark.parametrize("shape", [(7,), (3, 1000), (1, 1), (0,), (2, 0, 3)])
@pytest.mark.parametrize("g", [1.0 / 3.0, np.float64(-0.7), 1e308])
def test_the_means_adjoint_fills_g_over_count_as_dividing_a_filled_array(shape, g):
    a = RNG.standard_normal(shape)
    for template in (a, SavedShape(a.shape, a.dtype)):
        got = adjoints.mean_adjoint(g, template, None, False)
        expected = general_mean_adjoint(g, a)
        assert got.dtype == np.float64 and got.shape == shape
        np.testing.assert_array_equal(got, expected)


def test_the_means_adjoint_of_other_dtypes_takes_the_general_path():
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    got = adjoints.mean_adjoint(np.float32(1.0), a, None, False)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, general_mean_adjoint(np.float32(1.0), a))
    assert adjoints.mean_adjoint(2.0, np.zeros(()), None, False) == 2.0


@pytest.mark.parametrize("a_shape, b_shape", [((4, 3), (3, 5)), ((4, 3), (3,)),
                                              ((3,), (3, 5)), ((2, 4, 3), (3, 5))])
def test_matrix_product_adjoints_match_the_transposed_products(a_shape, b_shape):
    a, b = RNG.standard_normal(a_shape), RNG.standard_normal(b_shape)
    g = RNG.standard_normal(np.matmul(a, b).shape)
    da, db = adjoints.matmul_adjoint_a(g, a, b), adjoints.matmul_adjoint_b(g, a, b)
    assert da.shape == a.shape and db.shape == b.shape
    if a.ndim == 2 and b.ndim == 2:
        np.testing.assert_array_equal(da, g @ b.T)
        np.testing.assert_array_equal(db, a.T @ g)


def logistic(w, b, X, y):
    p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
    return -np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))


def two_layers(W1, W2, x):
    return np.mean(np.tanh(x @ W1) @ W2)


def test_gradients_through_the_short_paths_match_finite_differences():
    X, w = RNG.standard_normal((20, 4)), RNG.standard_normal(4)
    y = (RNG.standard_normal(20) > 0).astype(float)
    dw, db = sg.grad(logistic, wrt=(0, 1))(w, 0.3, X, y)
    assert np.ndim(db) == 0
    np.testing.assert_allclose(dw, numeric_grad(logistic, [w, 0.3, X, y], 0), rtol=1e-6)
    np.testing.assert_allclose(db, numeric_grad(logistic, [w, 0.3, X, y], 1), rtol=1e-6)
    W1, W2 = RNG.standard_normal((3, 5)), RNG.standard_normal((5, 2))
    x = RNG.standard_normal((6, 3))
    grads = sg.grad(two_layers, wrt=(0, 1))(W1, W2, x)
    for index, grad in enumerate(grads):
        np.testing.assert_allclose(grad, numeric_grad(two_layers, [W1, W2, x], index),
                                   rtol=1e-5, atol=1e-8)


def general_max_adjoint(g, a, ans, axis):
    """``max_adjoint`` with every operand expanded to ``a``'s shape first."""
    ans_full = np.broadcast_to(ans, a.shape)
    winners = a == ans_full
    count = np.broadcast_to(np.sum(winners, axis=axis, keepdims=True), a.shape)
    return np.broadcast_to(g, a.shape) * winners / count


@pytest.mark.parametrize("a, axis", [
    (RNG.standard_normal((6, 5)), 1), (RNG.standard_normal((6, 5)), 0),
    (RNG.standard_normal((3, 4, 5)), (0, 2)), (RNG.standard_normal((4, 3)), None),
    (np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]), 1),   # ties share the cotangent
    (np.array([[np.nan, 1.0], [0.5, 0.5]]), 1),
])
def test_the_max_adjoint_with_kept_axes_broadcasts_as_the_expanded_views(a, axis):
    ans = np.max(a, axis=axis, keepdims=True)
    g = RNG.standard_normal(ans.shape)
    got = adjoints.max_adjoint(g, a, ans, axis, True)
    expected = general_max_adjoint(g, a, ans, axis)
    assert got.shape == a.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def log_sum_exp(x):
    m = np.max(x, axis=1, keepdims=True)
    return np.sum(m + np.log(np.sum(np.exp(x - m), axis=1, keepdims=True)) * x[:, :1])


def test_gradients_through_a_kept_axis_max_match_finite_differences():
    x = RNG.standard_normal((4, 6))
    np.testing.assert_allclose(sg.grad(log_sum_exp)(x), numeric_grad(log_sum_exp, [x], 0),
                               rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("shape, index, g", [
    ((6,), slice(1, 4), np.arange(3.0)),           # a slice of a vector
    ((6,), slice(2, None), 2.5),                   # a number spread over the slice
    ((3, 4), 1, np.arange(4.0)),                   # a row: a view
    ((3, 4), slice(0, 2), np.arange(4.0)),         # rows, the addend broadcast
    ((6,), 3, 1.5),                                # one element: no view, written back
    ((3, 4), (slice(None), slice(1, 3)), np.ones((3, 2))),
])
def test_add_at_with_a_basic_index_adds_in_place(shape, index, g):
    dx = np.arange(float(np.prod(shape))).reshape(shape)
    expected = dx.copy()
    expected[index] += g
    assert core.add_at(dx, index, g) is dx
    np.testing.assert_array_equal(dx, expected)


def test_add_at_refuses_what_numpy_refuses():
    dx = np.zeros((2, 3))
    with pytest.raises(TypeError):   # a complex sum into a real row, as dx[0] += g
        core.add_at(dx, 0, np.ones(3) * 1j)
    assert not dx.any()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_the_max_adjoint_shares_g_among_tied_winners(dtype, axis, keepdims):
    """Closed form: each winner of a reduction gets ``g / (number of winners)``, every
    other item 0, with ties (3.0 twice in a row, -inf, a row of equal items)."""
    a = np.array([[1.0, 3.0, 3.0], [2.0, 0.0, -np.inf], [4.0, 4.0, 4.0]], dtype=dtype)
    ans = np.max(a, axis=axis, keepdims=keepdims)
    g = (RNG.standard_normal(np.shape(ans)) + 2.0).astype(dtype)
    full_ans = np.max(a, axis=axis, keepdims=True)
    full_g = np.reshape(g, full_ans.shape)
    winners = a == full_ans
    expected = np.where(winners, full_g / np.sum(winners, axis=axis, keepdims=True), 0.0)
    for _ in range(2):
        got = adjoints.max_adjoint(g, a, ans, axis, keepdims)
        assert got.shape == a.shape
        np.testing.assert_array_equal(got, expected)
