"""An adjoint whose first contribution is a new array made by a runtime helper (a
product's adjoint) is added to in place (``modes.reverse_adjoints.fresh_value``): the
same numbers as adding out of place, checked against finite differences, and no other
name's value changes."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.modes.reverse_adjoints import fresh_value
from srcgrad.syntax import quote_expr
from tests.conftest import numeric_grad


def used_twice(x, W, q):
    c = x * 2.0
    a = c * q
    b = c @ W
    return np.sum(np.tanh(a) * b)


def shared_in_a_loop(x, W, n):
    t = 0.0
    for _ in range(n):
        y = x @ W
        t = t + np.sum(np.sin(y) * x)
    return t


def kept_result(x, W):
    y = x @ W
    z = y * x
    return np.sum(z * y)


RNG = np.random.default_rng(29)


@pytest.mark.parametrize("source, fresh", [
    ("_sg.matmul_adjoint_a(g, a, b)", True), ("_sg.max_adjoint(g, a, m, 0, True)", True),
    ("_sg.unbroadcast(g * w, x)", True), ("_sg.unbroadcast(g, x)", False),
    ("_sg.spread_to(-g, a)", True), ("_sg.spread_to(g, a)", False), ("-g", True),
    ("_sg.sum_adjoint(g, a, None, False)", False), ("g", False), ("f(g)", False),
    ("_sg.matmul_adjoint_a(*args)", False),
    ("_sg.match_real(_sg.matmul_adjoint_a(g, a, b), a)", True), ("_sg.match_real(g, a)", False)])
def test_which_contributions_are_new_arrays(source, fresh):
    assert fresh_value(quote_expr(source)) is fresh


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("wrt", [0, 1, 2])
def test_a_matmul_adjoint_then_a_product(dtype, wrt):
    args = [RNG.standard_normal(s).astype(dtype) for s in ((4, 3), (3, 3), (3,))]
    df = sg.grad(used_twice, wrt)
    if wrt == 0:
        assert "dc = _sg.matmul_adjoint_a(" in sg.source(df)   # (it unbroadcasts: real for real)
        assert "dc += " in sg.source(df)
    got = df(*args)
    assert got.dtype == dtype
    tol = 1e-6 if dtype == np.float64 else 2e-3
    np.testing.assert_allclose(got, numeric_grad(used_twice, [a.astype(float) for a in args],
                                                 wrt), rtol=tol, atol=tol)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_in_a_loop(n):
    x, W = RNG.standard_normal((2, 2)), RNG.standard_normal((2, 2))
    for wrt in (0, 1):
        got = sg.grad(shared_in_a_loop, wrt)(x, W, n)
        np.testing.assert_allclose(got, numeric_grad(shared_in_a_loop, [x, W, n], wrt),
                                   rtol=1e-6, atol=1e-8)


def test_arguments_and_values_are_left_alone():
    x, W = RNG.standard_normal((3, 3)), RNG.standard_normal((3, 3))
    before = (x.copy(), W.copy())
    value, grads = sg.value_and_grad(kept_result, (0, 1))(x, W)
    np.testing.assert_array_equal(x, before[0])
    np.testing.assert_array_equal(W, before[1])
    assert value == pytest.approx(kept_result(x, W))
    for wrt in (0, 1):
        np.testing.assert_allclose(grads[wrt], numeric_grad(kept_result, [x, W], wrt),
                                   rtol=1e-6, atol=1e-8)
