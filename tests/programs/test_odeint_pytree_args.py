"""scipy.integrate.odeint with a list of (W, b) pairs among its args (a neural ODE's
parameters, ``odeint(f, y0, t, (params,))``): reverse mode (the adjoint method) and
forward mode against central differences."""

import numpy as np
import pytest
from scipy.integrate import odeint

import srcgrad as sg

Y0 = np.array([1.0, -0.5])
T = np.linspace(0.0, 0.5, 4)
RS = np.random.RandomState(0)
PARAMS = [(0.5 * RS.randn(2, 3), 0.1 * RS.randn(3)), (0.5 * RS.randn(3, 2), 0.1 * RS.randn(2))]


def dynamics(y, t, params):
    for W, b in params:
        y = np.tanh(np.dot(y, W) + b)
    return y


def final_state(W0, y0):
    params = [(W0, PARAMS[0][1]), PARAMS[1]]
    path = odeint(dynamics, y0, T, (params,), rtol=1e-10, atol=1e-10)
    return np.sum(path[-1] ** 2) + np.sum(path[1])


def central(f, x, v, eps=1e-6):
    return (f(x + eps * v) - f(x - eps * v)) / (2 * eps)


@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_odeint_with_a_list_of_pairs_among_its_args(derivative):
    W0 = PARAMS[0][0]
    v = np.random.default_rng(1).standard_normal(W0.shape)
    expected = central(lambda w: final_state(w, Y0), W0, v)
    if derivative == "grad":
        got = np.sum(sg.grad(final_state)(W0, Y0) * v)
    else:
        got = sg.jvp(final_state)(W0, Y0, v)[1]
    assert got == pytest.approx(expected, rel=1e-5)
