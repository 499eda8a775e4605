"""An ``sg.constant`` read inside a differentiated function is a constant value, not a
Tensor whose operators compute outside the generated code (which zeroed every gradient
flowing past it). Oracle: central differences."""

import types

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

X = np.array([.3, .7, 1.1])
C = sg.constant(np.array([1.0, 2.0, 3.0]))
CONFIG = types.SimpleNamespace(scale=sg.constant(0.5))


def test_implicit_gradients_past_a_global_constant():
    b = sg.Variable(2.0)
    f = sg.implicit_value_and_gradients(lambda x: np.sum(np.tanh(C * x)) + 3.0 * b)
    value, [(db, var)] = f(X)
    assert var is b
    assert float(db) == pytest.approx(3.0)
    assert float(np.asarray(value)) == pytest.approx(np.sum(np.tanh(C._value * X)) + 6.0)


def test_variable_gradient_through_the_constant_product():
    w = sg.Variable(np.array([0.4, -0.2, 0.9]))

    def loss(x):
        return np.sum(np.tanh(C * w * x))

    _, [(dw, _)] = sg.implicit_value_and_gradients(loss)(X)
    expected = numeric_grad(lambda v: np.sum(np.tanh(C._value * v * X)), [w.numpy()], 0)
    np.testing.assert_allclose(np.asarray(dw), expected, rtol=1e-6)


def test_grad_reads_a_constant_as_its_value():
    def f(x):
        return np.sum(np.sin(C * x) * CONFIG.scale)

    expected = numeric_grad(lambda x: np.sum(np.sin(C._value * x) * 0.5), [X], 0)
    np.testing.assert_allclose(sg.grad(f)(X), expected, rtol=1e-6)
    _, derivative = sg.jvp(f)(X, np.ones(3))
    assert derivative == pytest.approx(np.sum(expected), rel=1e-6)


def test_tape_gradient_past_a_constant():
    w = sg.Variable(np.array([0.4, -0.2, 0.9]))

    @sg.differentiable
    def model(x):
        return np.sum(C * w * x)

    with sg.GradientTape() as tape:
        y = model(X)
    dw = tape.gradient(y, w)
    np.testing.assert_allclose(np.asarray(dw), C._value * X)


def test_gradients_function_past_a_global_constant():
    def f(x, b):
        return np.sum(np.tanh(C * x)) + 3.0 * b

    dx, db = sg.gradients_function(f)(X, 2.0)
    expected = numeric_grad(lambda x: np.sum(np.tanh(C._value * x)), [X], 0)
    np.testing.assert_allclose(np.asarray(dx), expected, rtol=1e-6)
    assert float(np.asarray(db)) == pytest.approx(3.0)
