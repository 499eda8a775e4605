"""A subtraction's second operand gets ``-_sg.unbroadcast(g, b)`` (summed, then negated)
and a negated contribution is subtracted (``d -= c``): same numbers as before."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad


def centered(x, m, w):
    z = x[None, :, :] - m[:, None, :]     # m broadcast over x's rows
    return np.sum(np.exp(-z ** 2) * w)


def twice_subtracted(x, y):
    a = x - y        # y's first contribution: negated
    b = np.sin(y) - a * y
    return np.sum(b - y)      # and another negated one, accumulated


def scalar_operand(x, s):
    return np.sum((x - s) ** 2) - s


RNG = np.random.default_rng(17)


def test_the_negation_is_outside_the_sum():
    source = sg.source(sg.grad(centered, 1))
    assert "= -_sg.unbroadcast(" in source and "_sg.unbroadcast(-" not in source


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("wrt", [0, 1, 2])
def test_broadcast_subtraction(dtype, wrt):
    args = [RNG.standard_normal(s).astype(dtype) for s in ((5, 3), (2, 3), (3,))]
    got = sg.grad(centered, wrt)(*args)
    assert got.dtype == dtype and got.shape == args[wrt].shape
    tol = 1e-6 if dtype == np.float64 else 2e-3
    np.testing.assert_allclose(got, numeric_grad(centered, [a.astype(float) for a in args],
                                                 wrt), rtol=tol, atol=tol)


def test_negated_contributions_accumulate_by_subtraction():
    source = sg.source(sg.grad(twice_subtracted, 1))
    assert "+ -" not in source and "+= -" not in source
    x, y = RNG.standard_normal(4), RNG.standard_normal(4)
    for wrt in (0, 1):
        np.testing.assert_allclose(sg.grad(twice_subtracted, wrt)(x, y),
                                   numeric_grad(twice_subtracted, [x, y], wrt),
                                   rtol=1e-6, atol=1e-8)


def test_a_scalar_operand_and_the_hessian():
    x, s = RNG.standard_normal(3), 0.7
    np.testing.assert_allclose(sg.grad(scalar_operand, 1)(x, s),
                               numeric_grad(scalar_operand, [x, s], 1), rtol=1e-6)
    x, m, w = (RNG.standard_normal(s) for s in ((4, 3), (2, 3), (3,)))
    v = RNG.standard_normal((2, 3))
    hv = sg.hvp(centered, 1)(x, m, w, v)
    grad, eps = sg.grad(centered, 1), 1e-6
    numeric = (grad(x, m + eps * v, w) - grad(x, m - eps * v, w)) / (2 * eps)
    np.testing.assert_allclose(hv, numeric, rtol=1e-5, atol=1e-7)
