"""Derivatives come back in their input's dtype: a float32 input combined with float64
constants computes in float64 (NumPy's promotion) but gets a float32 gradient, in every
API. Closed forms are the oracle: d/dx sum(sin(x) * C) = cos(x) * C."""

import numpy as np
import pytest

import srcgrad as sg

C = np.array([1.0, 2.0, 3.0])
X = np.array([0.1, 0.2, 0.3], dtype=np.float32)
EXACT = np.cos(X.astype(np.float64)) * C


def weighted_sines(x):
    return np.sum(np.sin(x) * C)


def scaled_sines(x):
    return np.sin(x) * C


def halved(x):
    return x * 0.5


@sg.differentiable
def weighted_sines_unit(x):
    return np.sum(np.sin(x) * C)


def _tape(fn):
    v = sg.Variable(X)
    with sg.GradientTape() as tape:
        y = fn(v)
    return tape.gradient(y, v)


GRADIENTS = {
    "grad": lambda: sg.grad(weighted_sines)(X),
    "value_and_grad": lambda: sg.value_and_grad(weighted_sines)(X)[1],
    "vjp": lambda: sg.vjp(weighted_sines)(X)[1](1.0),
    "elementwise_grad": lambda: sg.elementwise_grad(scaled_sines)(X),
    "gradients_function": lambda: sg.gradients_function(weighted_sines)(X)[0],
    "tape, per operation": lambda: _tape(weighted_sines),
    "tape, compiled call": lambda: _tape(weighted_sines_unit),
}


@pytest.mark.parametrize("api", list(GRADIENTS))
def test_a_float32_input_gets_a_float32_gradient(api):
    gradient = GRADIENTS[api]()
    assert gradient.dtype == np.float32
    np.testing.assert_allclose(gradient, EXACT, rtol=1e-6)


@pytest.mark.parametrize("jacobian", [sg.jacobian, sg.jacfwd, sg.jacrev])
def test_jacobian_blocks_take_the_input_dtype(jacobian):
    result = jacobian(scaled_sines)(X)
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, np.diag(EXACT), rtol=1e-6)


def test_hessian_and_hvp_take_the_input_dtype():
    second = -np.sin(X.astype(np.float64)) * C
    hessian = sg.hessian(weighted_sines)(X)
    product = sg.hvp(weighted_sines)(X, np.ones(3, np.float32))
    assert hessian.dtype == product.dtype == np.float32
    np.testing.assert_allclose(hessian, np.diag(second), rtol=1e-6)
    np.testing.assert_allclose(product, second, rtol=1e-6)


def test_a_jvp_tangent_takes_the_output_dtype():
    value, tangent = sg.jvp(halved)(X, np.ones(3))   # a float64 direction
    assert value.dtype == tangent.dtype == np.float32
    np.testing.assert_allclose(tangent, 0.5)


def test_a_float32_scalar_gets_a_float32_scalar():
    gradient = sg.grad(weighted_sines)(np.float32(0.5))
    assert type(gradient) is np.float32
    assert np.isclose(gradient, np.cos(0.5) * 6.0, rtol=1e-6)


def test_float64_and_integer_inputs_are_unchanged():
    assert sg.grad(weighted_sines)(X.astype(np.float64)).dtype == np.float64
    assert sg.grad(weighted_sines)(np.array([0, 1, 2])).dtype == np.float64


def jacobian_of_phases(x):
    return np.exp(1j * x)


def test_a_complex_jacobian_keeps_its_imaginary_part():
    x = np.array([0.3, 0.7])
    result = sg.jacobian(jacobian_of_phases)(x)
    np.testing.assert_allclose(result, np.diag(1j * np.exp(1j * x)))


def product(x, y):
    return x * y


def test_a_python_float_gets_a_float64_gradient_next_to_a_float32():
    """NumPy computes ``float32 * float`` in float32; the float's gradient is float64."""
    gradient = sg.grad(product, wrt=1)(np.float32(1.5), 2.0)
    assert type(gradient) is np.float64 and gradient == 1.5


@sg.custom_vjp
def custom_weighted_sines(x):
    return np.sum(np.sin(x) * C)


def _custom_forward(x):
    return custom_weighted_sines(x), x


def _custom_backward(x, g):
    return (g * np.cos(x) * C,)   # float64: C is


custom_weighted_sines.defvjp(_custom_forward, _custom_backward)


@sg.custom_jvp
def custom_halved(x):
    return x * 0.5


custom_halved.defjvp(lambda primals, tangents: (custom_halved(*primals),
                                                tangents[0] * np.float64(0.5)))


def test_user_rules_answer_in_the_input_dtype_too():
    for gradient in (sg.grad(custom_weighted_sines)(X),
                     sg.value_and_grad(custom_weighted_sines)(X)[1]):
        assert gradient.dtype == np.float32
        np.testing.assert_allclose(gradient, EXACT, rtol=1e-6)
    _, tangent = sg.jvp(custom_halved)(X, np.ones(3))
    assert tangent.dtype == np.float32
    np.testing.assert_allclose(tangent, 0.5)
