"""A gradient function called inside a function that is differentiated again: TF gives
second derivatives (``gradients_function(lambda x, y: grad_fn(x, y)[0])``)."""

import numpy as np
import pytest

import srcgrad as sg
import srcgrad.tfe as tfe

W = sg.Variable(1.5)


def f(x, y):
    return x * x * y + np.sin(x * y)


def reads_w(x, y):
    return x * x * y * W


def second_derivatives(x, y):
    """d2f/dx2 and d2f/dxdy, in closed form."""
    return 2 * y - y * y * np.sin(x * y), 2 * x + np.cos(x * y) - x * y * np.sin(x * y)


GRAD_FN = sg.gradients_function(f)
TFE_GRAD_FN = tfe.gradients_function(f)
VALUE_AND_GRADS = sg.value_and_gradients_function(f)


def test_second_order_through_gradients_function():
    """TF: gradients_function(lambda x, y: grad_fn(x, y)[0])(2.0, 3.0) is
    [d2f/dx2, d2f/dxdy]."""
    got = sg.gradients_function(lambda x, y: GRAD_FN(x, y)[0])(2.0, 3.0)
    assert np.allclose(got, second_derivatives(2.0, 3.0))
    got = tfe.gradients_function(lambda x, y: TFE_GRAD_FN(x, y)[0])(2.0, 3.0)
    assert np.allclose([g.numpy() for g in got], second_derivatives(2.0, 3.0))


def test_second_order_of_a_summed_array_output():
    """The inner gradient of a non-scalar output is that of its sum (TF's rule), then
    summed again: elementwise second derivatives here."""
    x = np.array([2.0, 1.0, -0.5])
    dx, _ = sg.gradients_function(lambda x, y: GRAD_FN(x, y)[0])(x, 3.0)
    assert np.allclose(dx, second_derivatives(x, 3.0)[0])


def test_second_order_through_value_and_gradients_function():
    """d/dx of (df/dy + f) = d2f/dxdy + df/dx."""
    def outer(x, y):
        value, grads = VALUE_AND_GRADS(x, y)
        return grads[1] + value

    x, y = 2.0, 3.0
    [dx] = sg.gradients_function(outer, params=["x"])(x, y)
    assert np.isclose(dx, second_derivatives(x, y)[1] + 2 * x * y + y * np.cos(x * y))


def test_a_gradient_function_of_code_reading_variables_is_refused_inside():
    """Its generated code hands the Variables' cotangents to a collector the caller's
    would take for its own: refused with a TransformError, never a wrong number (TF
    gives d(2xyW)/dW = 2xy here)."""
    grad_fn = sg.gradients_function(reads_w)
    with pytest.raises(sg.TransformError, match="cannot differentiate through a "
                                                "gradients_function of a function that "
                                                "reads Variables"):
        sg.implicit_gradients(lambda x, y: grad_fn(x, y)[0])(2.0, 3.0)


def test_implicit_gradients_and_make_vjp_inside_are_refused():
    implicit = sg.implicit_gradients(reads_w)
    with pytest.raises(sg.TransformError, match="through implicit_gradients called"):
        sg.gradients_function(lambda x, y: implicit(x, y)[0][0])(2.0, 3.0)
    vjp = sg.make_vjp(f)
    with pytest.raises(sg.TransformError, match="through make_vjp called"):
        sg.grad(lambda x: vjp(x, 2.0)[0])(1.0)
