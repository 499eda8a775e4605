"""One function checked in every mode against central finite differences: reverse
(``grad``, ``value_and_grad``, ``vjp``), forward (``jvp``), grad-of-grad through ``hvp``
where asked, and the tape (a ``GradientTape`` around a ``@differentiable`` call on a
Variable), each on a fresh copy of the input."""

import numpy as np

import srcgrad as sg
from tests.conftest import numeric_grad

X = np.array([0.3, 0.7, 1.1])
TANGENT = np.array([1.0, -0.5, 0.25])


def finite_differences(f, x=X):
    return numeric_grad(lambda v: f(v.copy()), [x.copy()], 0)


def check_modes(f, x=X, second_order=False):
    """Assert every mode's derivative of ``f`` at ``x`` matches finite differences."""
    expected = finite_differences(f, x)
    close = dict(rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sg.grad(f)(x.copy()), expected, **close)
    value, gradient = sg.value_and_grad(f)(x.copy())
    np.testing.assert_allclose(value, f(x.copy()), **close)
    np.testing.assert_allclose(gradient, expected, **close)
    _, backward = sg.vjp(f)(x.copy())
    np.testing.assert_allclose(backward(1.0), expected, **close)
    value, tangent = sg.jvp(f)(x.copy(), TANGENT.copy())
    np.testing.assert_allclose(value, f(x.copy()), **close)
    np.testing.assert_allclose(tangent, expected @ TANGENT, **close)
    variable = sg.Variable(x.copy())
    compiled = sg.differentiable(f)
    with sg.GradientTape() as tape:
        result = compiled(variable)
    np.testing.assert_allclose(np.asarray(tape.gradient(result, variable)), expected, **close)
    if second_order:
        def directional(v):
            return finite_differences(f, v) @ TANGENT
        expected_hvp = numeric_grad(directional, [x.copy()], 0, eps=1e-4)
        np.testing.assert_allclose(sg.hvp(f)(x.copy(), TANGENT.copy()), expected_hvp,
                                   rtol=1e-3, atol=1e-4)
    return expected
