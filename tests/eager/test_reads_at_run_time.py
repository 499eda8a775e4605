"""Variables read by code found only at run time (a method called on an argument, a
callable object, a function passed in, ``getattr``, a container of models) get gradients
from ``implicit_value_and_gradients`` and from a tape over an ``sg.differentiable``
function, as they do when each operation is recorded; checked against central finite
differences in each Variable."""

import numpy as np
import pytest

import srcgrad as sg

S = sg.Variable(np.array([1.0, 2.0, 3.0]))


class Model:
    def __init__(self, scale):
        self.w = sg.Variable(scale * np.array([0.5, -1.0, 2.0]))

    def __call__(self, x):
        return self.w * x

    def apply(self, x):
        return np.tanh(self.w * x)


class Stack:
    def __init__(self):
        self.layers = [Model(1.0), Model(-0.5)]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def called_model(m, x):
    return np.sum(m(x) ** 2) + np.sum(S * x)


def method_of_an_argument(m, x):
    return np.sum(m.apply(x) * x) + np.sum(S * x)


def getattr_method(m, x):
    name = "apply"
    return np.sum(getattr(m, name)(x)) * np.sum(S * x)


def function_passed_in(m, x):
    fn = m.apply
    return np.sum(fn(x) ** 2) + np.sum(S * x * x)


def stacked_layers(m, x):
    return np.sum(np.sin(m(x))) + np.sum(S) * x[0]


CASES = [(called_model, Model(1.0)), (method_of_an_argument, Model(0.7)),
         (getattr_method, Model(-1.2)), (function_passed_in, Model(0.3)),
         (stacked_layers, Stack())]


def variables_of(m):
    found = [S]
    for layer in getattr(m, "layers", [m]):
        found.append(layer.w)
    return found


def numeric(f, m, x, variable, h=1e-6):
    grad = np.zeros_like(variable._value)
    base = variable._value.copy()
    for i in range(base.size):
        for sign in (1, -1):
            bumped = base.copy()
            bumped.flat[i] += sign * h
            variable.assign(bumped)
            grad.flat[i] += sign * f(m, x) / (2 * h)
    variable.assign(base)
    return grad


def plain(f):
    """``f`` run on the Variables' values, for finite differences."""
    def run(m, x):
        value = f(m, x)
        return float(getattr(value, "_value", value))
    return run


@pytest.mark.parametrize("f, m", CASES, ids=[f.__name__ for f, _ in CASES])
def test_implicit_gradients_reach_variables_behind_run_time_calls(f, m):
    x = np.array([0.4, -1.1, 0.8])
    g = sg.implicit_value_and_gradients(f)
    for _ in range(2):   # the first call compiles; the second runs what it kept
        value, pairs = g(m, x)
        found = {id(v): grad for grad, v in pairs}
        for variable in variables_of(m):
            assert id(variable) in found, f"no gradient for {variable.name}"
            assert np.allclose(found[id(variable)], numeric(plain(f), m, x, variable),
                               atol=1e-5)
        assert np.isclose(value, plain(f)(m, x))


@pytest.mark.parametrize("f, m", CASES, ids=[f.__name__ for f, _ in CASES])
def test_tape_over_a_compiled_function_reaches_them_too(f, m):
    x = np.array([0.4, -1.1, 0.8])
    compiled = sg.differentiable(f)
    variables = variables_of(m)
    for _ in range(2):
        with sg.GradientTape() as tape:
            loss = compiled(m, x)
        grads = tape.gradient(loss, variables)
        for variable, grad in zip(variables, grads):
            assert grad is not None, f"no gradient for {variable.name}"
            assert np.allclose(grad, numeric(plain(f), m, x, variable), atol=1e-5)
