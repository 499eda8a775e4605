"""``x ** 0`` is the constant 1: its derivatives are 0 at every x, x = 0 included, in
every spelling of the power (``np.power``, ``np.float_power``, ``**``, ``math.pow``,
``pow``), for a float and an array, both modes, orders 1 and 2 (the partial
``y * x ** (y - 1)`` was ``0 * 0 ** -1``: nan for an array, ZeroDivisionError for a
float). The exponent is changed at ``x == 0 and y == 0`` only: changed wherever ``y ==
0``, the derivative of the partial in ``y`` there was wrong (1 where 1/x is right), which
the checks against central differences in both arguments, to order 3, catch."""

import math

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.testing import check_grads

SPELLINGS = {
    "np.power": lambda x, y: np.power(x, y),
    "np.float_power": lambda x, y: np.float_power(x, y),
    "operator": lambda x, y: x ** y,
    "math.pow": lambda x, y: math.pow(x, y),
    "pow": lambda x, y: pow(x, y),
}
SCALAR_ONLY = {"math.pow"}


def total(f, y):
    return lambda x: np.sum(f(x, y))


@pytest.mark.parametrize("name", sorted(SPELLINGS))
@pytest.mark.parametrize("y", [0.0, 0])
def test_the_power_zero_has_zero_derivatives_at_zero(name, y):
    f = total(SPELLINGS[name], y)
    points = [0.0, 1.5] + ([] if name in SCALAR_ONLY else [np.zeros(3), np.array([0.0, 2.0])])
    for x in points:
        for _ in range(2):
            assert np.all(sg.grad(f)(x) == 0.0)
            assert np.all(sg.jvp(f)(x, np.ones_like(x))[1] == 0.0)
            if np.ndim(x) == 0:
                assert sg.grad(sg.grad(f))(x) == 0.0


@pytest.mark.parametrize("name", sorted(SPELLINGS))
@pytest.mark.parametrize("y", [0.0, 1.0, 2.5, 3])
def test_powers_against_finite_differences(name, y):
    x = 1.3 if name in SCALAR_ONLY else np.array([0.7, 1.3, 2.1])
    np.random.seed(0)
    check_grads(SPELLINGS[name], 0, order=3 if name == "operator" else 2)(x, y)
    if name not in SCALAR_ONLY:
        check_grads(SPELLINGS[name], [0, 1], order=2)(x, float(y))
