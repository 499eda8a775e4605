"""Every way to reach a function x every way to differentiate: the right derivative
(central finite differences of the program itself) or a srcgrad error, never a wrong
number. ``indirection_programs`` holds the programs."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
from tests.soundness.indirection_programs import PROGRAMS

X = np.array([0.3, 0.7, 1.1])
V = np.array([0.5, -1.0, 2.0])

# (API, program) pairs refused with a srcgrad error (the matrix checks the error). None
# now: a factory returning a lambda or a nested function, once refused in eager units,
# becomes a local function of its caller (``normalize.factories``).
REFUSED: set = set()


def numeric_hessian_vector(f, x, v, eps=1e-4):
    """d/dt of the finite-difference gradient at x + t v (central, both levels)."""
    plus = numeric_grad(f, [x + eps * v], 0, eps=1e-5)
    minus = numeric_grad(f, [x - eps * v], 0, eps=1e-5)
    return (plus - minus) / (2 * eps)


def check(api, name, run):
    """``run()`` passes, or raises a srcgrad error where ``REFUSED`` says so."""
    if (api, name) in REFUSED:
        with pytest.raises(sg.SrcgradError):
            run()
    else:
        run()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_reverse(name):
    f = PROGRAMS[name]
    check("reverse", name, lambda: np.testing.assert_allclose(
        sg.grad(f)(X), numeric_grad(f, [X], 0), rtol=1e-6, atol=1e-8))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_forward(name):
    f = PROGRAMS[name]

    def run():
        value, tangent = sg.jvp(f)(X, V)
        np.testing.assert_allclose(value, f(X))
        np.testing.assert_allclose(tangent, numeric_grad(f, [X], 0) @ V, rtol=1e-6, atol=1e-8)

    check("forward", name, run)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_grad_of_grad(name):
    f = PROGRAMS[name]
    check("grad_of_grad", name, lambda: np.testing.assert_allclose(
        sg.hvp(f)(X, V), numeric_hessian_vector(f, X, V), rtol=1e-4, atol=1e-5))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_tape(name):
    f = PROGRAMS[name]

    def run():
        x = sg.Variable(X)
        recorded = sg.differentiable(f)
        with sg.GradientTape() as tape:
            y = recorded(x)
        np.testing.assert_allclose(tape.gradient(y, x), numeric_grad(f, [X], 0),
                                   rtol=1e-6, atol=1e-8)

    check("tape", name, run)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_implicit(name):
    f = PROGRAMS[name]

    def run():
        x = sg.Variable(X)
        [(grad, variable)] = sg.implicit_gradients(lambda: f(x))()
        assert variable is x
        np.testing.assert_allclose(grad, numeric_grad(f, [X], 0), rtol=1e-6, atol=1e-8)

    check("implicit", name, run)
