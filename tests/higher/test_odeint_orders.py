"""Derivatives of order two and three through ``scipy.integrate.odeint`` are refused with
a MissingRuleError that names odeint, in every composition (its first derivative
integrates the adjoint or sensitivity equations, calling the user's dynamics through
srcgrad as it runs; that integration has no row), while the first derivative still
matches finite differences."""

import numpy as np
import pytest

import srcgrad as sg

odeint = pytest.importorskip("scipy.integrate").odeint
TIMES = np.array([0.0, 0.3, 0.8])


def decay(y, t, k):
    return -k * y + 0.1 * np.sin(t) * y[::-1]


def trajectory(y0):
    return np.sum(odeint(decay, y0, TIMES, args=(0.7,), rtol=1e-11, atol=1e-11) ** 2)


def with_rate(k):
    return np.sum(odeint(decay, np.array([1.0, 0.5]), TIMES, args=(k,), rtol=1e-11,
                         atol=1e-11))


Y0, V = np.array([1.0, 2.0]), np.array([0.5, -1.0])
COMPOSITIONS = {
    "hvp": lambda f, x, v: sg.hvp(f)(x, v),
    "hessian": lambda f, x, v: sg.hessian(f)(x),
    "grad of grad": lambda f, x, v: sg.grad(lambda y: np.sum(sg.grad(f)(y) * v))(x),
    "jvp of jvp": lambda f, x, v: sg.jvp(lambda y: sg.jvp(f)(y, v)[1])(x, v),
    "jvp of hvp": lambda f, x, v: sg.jvp(lambda y: np.sum(sg.hvp(f)(y, v) * v))(x, v),
    "grad of grad of grad": lambda f, x, v: sg.grad(lambda y: np.sum(sg.grad(
        lambda z: np.sum(sg.grad(f)(z) * v))(y) * v))(x),
}


@pytest.mark.parametrize("composition", sorted(COMPOSITIONS))
@pytest.mark.parametrize("f, x, v", [(trajectory, Y0, V), (with_rate, 0.7, 1.0)],
                         ids=["initial state", "args"])
def test_higher_orders_are_refused_naming_odeint(composition, f, x, v):
    with pytest.raises(sg.MissingRuleError, match=r"scipy\.integrate\.odeint is not supported"):
        COMPOSITIONS[composition](f, x, v)


def test_the_first_derivative_still_matches_finite_differences():
    h = 1e-6
    numeric = (trajectory(Y0 + h * V) - trajectory(Y0 - h * V)) / (2 * h)
    for _ in range(2):
        assert np.isclose(np.sum(sg.grad(trajectory)(Y0) * V), numeric, rtol=1e-6)
        assert np.isclose(sg.jvp(trajectory)(Y0, V)[1], numeric, rtol=1e-6)
