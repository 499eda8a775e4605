"""A broadcast factor's cotangent, ``unbroadcast(g * b, x)``, is summed in one pass
(``optimize.fused_products``, ``runtime.fused``): gradients against finite differences,
the helper against the product it replaces, for every dtype and shape it meets."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.optimize.fused_products import fuse_product_reductions
from srcgrad.runtime import shape_of, unbroadcast, unbroadcast_product
from tests.conftest import numeric_grad
from tests.passes.helpers import expect, show, statements


def scaled_centered(x, m, q):
    z = x[None, :, :] - m[:, None, :]
    return np.sum((q[:, None, :] * z) ** 2)


def weighted_rows(x, w, s):
    return np.sum(np.tanh(x * w) * s)


RNG = np.random.default_rng(23)


def test_the_pass_fuses_products_under_unbroadcast_only():
    body = statements("""
        d1 = _sg.unbroadcast(g * b, x)
        d2 = -_sg.unbroadcast(g * 2 * b, x)
        d3 = _sg.unbroadcast(g / b, x)
        d4 = _sg.unbroadcast(g, x)
        d5 = f(g * b, x)
    """)
    assert show(fuse_product_reductions(body)) == expect("""
        d1 = _sg.unbroadcast_product(g, b, x)
        d2 = -_sg.unbroadcast_product(g * 2, b, x)
        d3 = _sg.unbroadcast(g / b, x)
        d4 = _sg.unbroadcast(g, x)
        d5 = f(g * b, x)
    """)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("wrt", [0, 1, 2])
def test_a_broadcast_scale_against_finite_differences(dtype, wrt):
    args = [RNG.standard_normal(s).astype(dtype) for s in ((6, 3), (2, 3), (2, 3))]
    df = sg.grad(scaled_centered, wrt)
    assert "_sg.unbroadcast_product(" in sg.source(df)
    got = df(*args)
    assert got.dtype == dtype and got.shape == args[wrt].shape
    tol = 1e-6 if dtype == np.float64 else 2e-3
    np.testing.assert_allclose(got, numeric_grad(scaled_centered,
                                                 [a.astype(float) for a in args], wrt),
                               rtol=tol, atol=tol)


@pytest.mark.parametrize("wrt", [0, 1, 2])
def test_a_row_weight_and_a_float_scale(wrt):
    args = [RNG.standard_normal((5, 4)), RNG.standard_normal(4), 0.3]
    got = sg.grad(weighted_rows, wrt)(*args)
    np.testing.assert_allclose(got, numeric_grad(weighted_rows, args, wrt), rtol=1e-6,
                               atol=1e-8)
    assert type(got) is type(args[wrt]) or np.shape(got) == np.shape(args[wrt])


def test_the_hessian_vector_product_differentiates_the_fused_sum():
    x, m, q = (RNG.standard_normal(s) for s in ((4, 3), (2, 3), (2, 3)))
    v = RNG.standard_normal((2, 3))
    for wrt, point in ((1, m), (2, q)):
        hv = sg.hvp(scaled_centered, wrt)(x, m, q, v)
        grad = sg.grad(scaled_centered, wrt)
        eps = 1e-6
        moved = [x, m, q]
        moved[wrt] = point + eps * v
        plus = grad(*moved)
        moved[wrt] = point - eps * v
        numeric = (plus - grad(*moved)) / (2 * eps)
        np.testing.assert_allclose(hv, numeric, rtol=1e-5, atol=1e-6)


def test_a_gradient_of_a_gradient_through_the_fused_sum():
    def inner(q, x):
        return np.sum(q * x) ** 2

    def outer(q, x):
        return np.sum(sg.grad(inner, 0)(q, x) ** 2)

    q, x = RNG.standard_normal(3), RNG.standard_normal((4, 3))
    np.testing.assert_allclose(sg.grad(outer, 0)(q, x), numeric_grad(outer, [q, x], 0),
                               rtol=1e-5, atol=1e-6)


CASES = [((4, 5, 3), (4, 5, 3), (4, 1, 3)), ((6, 3), (6, 3), (3,)), ((6, 3), (3,), (3,)),
         ((6, 1), (6, 3), (6, 1)), ((6, 3), (6, 3), ()), ((2, 6, 3), (6, 1), (1, 1)),
         ((5,), (5,), (1,)), ((0, 3), (0, 3), (3,))]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
@pytest.mark.parametrize("a_shape, b_shape, x_shape", CASES)
def test_the_helper_is_unbroadcast_of_the_product(dtype, a_shape, b_shape, x_shape):
    def sample(shape):
        values = RNG.standard_normal(shape)
        if np.dtype(dtype).kind == "c":
            values = values + 1j * RNG.standard_normal(shape)
        return values.astype(dtype)

    a, b = sample(a_shape), sample(b_shape)
    tol = 1e-12 if np.dtype(dtype) in (np.float64, np.complex128) else 1e-4
    for x in (np.zeros(x_shape), np.zeros(x_shape, dtype=np.complex128),
              shape_of(np.zeros(x_shape))):
        want, got = unbroadcast(a * b, x), unbroadcast_product(a, b, x)
        assert type(got) is type(want) and got.shape == want.shape
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    if x_shape == ():
        want, got = unbroadcast(a * b, 1.5), unbroadcast_product(a, b, 1.5)
        assert type(got) is type(want)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_other_operands_take_the_product():
    a = np.arange(6.0).reshape(2, 3)
    assert unbroadcast_product(a, 2, np.zeros(3)).tolist() == [6.0, 10.0, 14.0]
    mixed = unbroadcast_product(a, np.ones(3, dtype=np.float32), np.zeros(3))
    assert mixed.dtype == np.float64 and mixed.tolist() == [3.0, 5.0, 7.0]
    ints = unbroadcast_product(a.astype(int), a.astype(int), np.zeros(3))
    assert ints.tolist() == [9, 17, 29]
    assert unbroadcast_product(2.0, 3.0, 1.0) == 6.0
    with pytest.raises(ValueError):
        unbroadcast_product(np.ones((2, 3)), np.ones((2, 4)), np.zeros(3))


def test_a_float_operands_cotangent_sums_like_the_whole_array():
    for shape in ((7,), (3, 4), (2, 3, 2)):
        g = RNG.standard_normal(shape)
        got = unbroadcast(g, 0.5)
        assert type(got) is np.float64
        assert got == np.sum(g, axis=tuple(range(g.ndim)))
    g = RNG.standard_normal(5)
    got = unbroadcast_product(g, g, shape_of(g))
    assert got.shape == (5,) and np.array_equal(got, g * g)
    got = unbroadcast_product(g.astype(np.float32), g.astype(np.float32), np.zeros(5))
    assert got.dtype == np.float32   # shaped like x but not its dtype: unbroadcast's result
