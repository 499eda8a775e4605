"""A sum's cotangent read once by elementwise arithmetic stays compact until that
arithmetic broadcasts it (``optimize.spreads``, ``runtime.spreads``): same gradients,
no spread array."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.optimize.spreads import compact_spreads
from srcgrad.runtime import SavedShape, expand_summed, spread_to, sum_adjoint
from tests.conftest import numeric_grad
from tests.passes.helpers import expect, show, statements


def squares_along(x, w):
    z = x * w
    return np.sum(np.exp(-np.sum(z ** 2, axis=1)))


def total_squares(x):
    return np.sum(x ** 2) + np.sum(np.sin(x), axis=0, keepdims=True).sum()


def in_a_loop(x, n):
    t = 0.0
    for _ in range(n):
        x = np.tanh(x)
        t = t + np.sum(x ** 2)
    return t


RNG = np.random.default_rng(11)


def test_the_spread_is_compact_and_the_gradient_exact():
    source = sg.source(sg.grad(squares_along, 1))
    assert "_sg.expand_summed(d_sum, _pow, 1, False)" in source
    assert "_sg.spread_to(d_pow * 2 * z, _pow)" in source
    x, w = RNG.standard_normal((4, 3)), RNG.standard_normal(3)   # w broadcast over rows
    np.testing.assert_allclose(sg.grad(squares_along, 1)(x, w),
                               numeric_grad(squares_along, [x, w], 1), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_whole_and_keepdims_sums(dtype):
    x = RNG.standard_normal((3, 2)).astype(dtype)
    got = sg.grad(total_squares)(x)
    assert got.dtype == dtype
    tol = 1e-6 if dtype == np.float64 else 2e-3
    np.testing.assert_allclose(got, numeric_grad(total_squares, [x.astype(float)], 0),
                               rtol=tol, atol=tol)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_in_a_loop_that_runs_any_number_of_times(n):
    x = RNG.standard_normal(5)
    source = sg.source(sg.grad(in_a_loop))
    assert "_sg.spread_to(" in source
    np.testing.assert_allclose(sg.grad(in_a_loop)(x, n), numeric_grad(in_a_loop, [x, n], 0),
                               rtol=1e-6, atol=1e-8)


def test_hessian_vector_products_differentiate_the_compact_spread():
    x, w, v = RNG.standard_normal((4, 3)), RNG.standard_normal(3), RNG.standard_normal(3)
    hv = sg.hvp(squares_along, 1)(x, w, v)
    grad = sg.grad(squares_along, 1)
    eps = 1e-6
    numeric = (grad(x, w + eps * v) - grad(x, w - eps * v)) / (2 * eps)
    np.testing.assert_allclose(hv, numeric, rtol=1e-5, atol=1e-7)


def test_the_pass_wraps_only_a_single_elementwise_read_of_the_next_statement():
    body = statements("""
        d1 = _sg.sum_adjoint(g, a, 0, False)
        r1 = f(-(d1 * 2) + y)
        d2 = _sg.sum_adjoint(g, a, None, False)
        r2 = f(d2, y)
        d3 = _sg.sum_adjoint(g, a, None, False)
        r3 = d3 * y
        r4 = d3 + 1
        d5 = _sg.sum_adjoint(g, a, None, False)
        r5 = y * 2
        r6 = d5 * y
        d7 = _sg.sum_adjoint(g, a, None, False)
        r7 = d7 * y
    """)
    assert show(compact_spreads(body, {"d7"})) == expect("""
        d1 = _sg.expand_summed(g, a, 0, False)
        r1 = f(_sg.spread_to(-(d1 * 2) + y, a))
        d2 = _sg.sum_adjoint(g, a, None, False)
        r2 = f(d2, y)
        d3 = _sg.sum_adjoint(g, a, None, False)
        r3 = d3 * y
        r4 = d3 + 1
        d5 = _sg.sum_adjoint(g, a, None, False)
        r5 = y * 2
        r6 = d5 * y
        d7 = _sg.sum_adjoint(g, a, None, False)
        r7 = d7 * y
    """)   # d2: a call argument; d3: read twice; d5: not read next; d7: live out


A = np.arange(24.0).reshape(2, 3, 4)


@pytest.mark.parametrize("template", [A, SavedShape(A.shape, A.dtype), A.astype(np.float32),
                                      np.arange(24).reshape(2, 3, 4)])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (1, False), ((0, 2), False),
                                            (-1, True), ((0, 1, 2), True)])
def test_expand_summed_broadcasts_to_sum_adjoint(template, axis, keepdims):
    g = np.sum(A, axis=axis, keepdims=keepdims) * 0.5 + 1
    full = sum_adjoint(g, template, axis, keepdims)
    compact = expand_summed(g, template, axis, keepdims)
    assert compact.ndim == 3 and compact.dtype == full.dtype
    np.testing.assert_array_equal(np.broadcast_to(compact, full.shape), full)
    grown = spread_to(compact * 2, template)
    assert grown.shape == full.shape and grown.flags.writeable
    np.testing.assert_array_equal(grown, full * 2)
    assert grown is not compact


def test_expand_summed_leaves_other_operands_to_sum_adjoint():
    assert expand_summed(2.0, 3.0, None, False) == 2.0                   # a scalar template
    np.testing.assert_array_equal(expand_summed(2.0, [1.0, 2.0], None, False), [2.0, 2.0])
    same = np.ones((2, 3))
    assert spread_to(same, SavedShape((2, 3), same.dtype)) is same   # nothing to grow
    bigger = np.ones((4, 2, 3))
    assert spread_to(bigger, same) is bigger
    assert spread_to(same, [[1.0, 2.0]]) is same   # another template: already spread
