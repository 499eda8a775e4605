"""Which Variables the implicit APIs report, as TensorFlow 2 does: every trainable
Variable read while the function ran, in creation order, ``(None, v)`` for one whose
read does not reach the output; Variables behind a callable object's attributes."""

import numpy as np

import srcgrad as sg
from tests.conftest import numeric_grad

A = sg.Variable(1.5)
B = sg.Variable(np.array([2.0, -1.0]))


def unused_expression(x):
    B * 2.0   # noqa: B018  (TF: B is read, listed with a None gradient)
    return A * x


def unused_assignment(x):
    unused = np.sum(B) + 1.0   # noqa: F841
    return A * x


def read_through_numpy(x):
    _ = B.numpy()
    return A * x


def test_a_read_whose_value_is_unused_is_listed_with_none():
    """TF 2.21: implicit_gradients lists (None, v) for a trainable Variable read whose
    value does not reach the output, in creation order."""
    for f in (unused_expression, unused_assignment, read_through_numpy):
        pairs = sg.implicit_gradients(f)(3.0)
        assert [v for _, v in pairs] == [A, B], f.__name__
        assert np.isclose(pairs[0][0], 3.0) and pairs[1][0] is None


def test_a_read_whose_value_is_unused_is_watched_by_the_tape():
    """TF 2.21: the tape watches the Variable (watched_variables lists it) and its
    gradient is None."""
    step = sg.differentiable(read_through_numpy)
    with sg.GradientTape() as tape:
        y = step(2.0)
    assert tape.watched_variables() == (A, B)
    grads = tape.gradient(y, [A, B])
    assert np.isclose(grads[0], 2.0) and grads[1] is None


class Model:
    def __init__(self):
        self.w = sg.Variable(np.array([0.5, -1.0, 2.0]))
        self.b = sg.Variable(0.25)

    def __call__(self, x):
        return np.tanh(x @ self.w + self.b)


def _closure_loss(model):
    def loss(x, y):
        return (model(x) - y) ** 2

    return loss


MODEL = Model()


def global_loss(x, y):
    return (MODEL(x) - y) ** 2


def _oracle(model, x, y):
    def value(w, b):
        return (np.tanh(x @ w + b) - y) ** 2

    w, b = model.w.numpy(), model.b.numpy()
    return value(w, b), numeric_grad(value, (w, b), 0), numeric_grad(value, (w, b), 1)


def test_variables_of_a_callable_object_in_a_closure():
    """TF 2.21: implicit_value_and_gradients finds m.w and m.b when the loss calls
    ``m(x)`` (``__call__`` reading self.w, self.b), m a closure cell or a global."""
    x, y = np.array([1.0, 2.0, -0.5]), 0.3
    for model, loss in ((Model(), None), (MODEL, global_loss)):
        loss = loss or _closure_loss(model)
        value, pairs = sg.implicit_value_and_gradients(loss)(x, y)
        expected, dw, db = _oracle(model, x, y)
        assert np.isclose(value, expected)
        assert [v for _, v in pairs] == [model.w, model.b]
        assert np.allclose(pairs[0][0], dw, atol=1e-6) and np.isclose(pairs[1][0], db)


def test_a_callable_object_is_differentiated_through_by_grad():
    """The object's ``__call__`` is compiled: d/dx of (m(x) - y)**2 (no rule needed)."""
    x, y = np.array([1.0, 2.0, -0.5]), 0.3
    grad = sg.grad(global_loss)(x, y)
    oracle = numeric_grad(lambda x: (np.tanh(x @ MODEL.w.numpy() + MODEL.b.numpy()) - y) ** 2,
                          (x,), 0)
    assert np.allclose(grad, oracle, atol=1e-6)
