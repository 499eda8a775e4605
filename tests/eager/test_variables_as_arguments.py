"""Variables passed as arguments to an undecorated model function (TF-1 style): the
model is inlined into the implicit unit when it is small and of the same module, its
own Variable reads wrapped as the caller's are; gradients against central differences."""

import types

import numpy as np

import srcgrad as sg
from tests.conftest import numeric_grad

rng = np.random.default_rng(5)
W1 = sg.Variable(rng.standard_normal((3, 4)) * 0.5)
B1 = sg.Variable(np.zeros(4))
SCALE = sg.Variable(1.5)
LAYER = types.SimpleNamespace(w=sg.Variable(rng.standard_normal(4)))
X, Y = rng.standard_normal((5, 3)), rng.standard_normal(5)


def model(w1, b1, layer, x, y):
    h = np.tanh(x @ w1 + b1)
    return np.mean((h @ layer.w * SCALE - y) ** 2)   # an attribute and a global inside


def loss(x, y):
    return model(W1, B1, LAYER, x, y)


def _plain(w1, b1, w, scale):
    return np.mean((np.tanh(X @ w1 + b1) @ w * scale - Y) ** 2)


def test_variables_passed_to_an_inlined_model_get_their_gradients():
    """TF: every Variable read (passed as an argument, an attribute inside, a global
    inside) is listed in creation order with d loss / d variable."""
    value, pairs = sg.implicit_value_and_gradients(loss)(X, Y)
    values = (W1.numpy(), B1.numpy(), LAYER.w.numpy(), SCALE.numpy())
    assert np.isclose(value, _plain(*values))
    assert [v for _, v in pairs] == [W1, B1, SCALE, LAYER.w]
    expected = [numeric_grad(_plain, values, i) for i in (0, 1, 3, 2)]
    for (grad, _), oracle in zip(pairs, expected, strict=True):
        assert np.allclose(grad, oracle, atol=1e-6)


def test_the_inlined_model_sees_a_rebound_global():
    """The inlined body reads the global when it runs, not when it was compiled."""
    global SCALE
    step = sg.implicit_gradients(loss)
    step(X, Y)
    saved, SCALE = SCALE, sg.Variable(-0.5)
    try:
        pairs = step(X, Y)
        grad = {id(v): g for g, v in pairs}[id(SCALE)]
        values = (W1.numpy(), B1.numpy(), LAYER.w.numpy(), -0.5)
        assert np.isclose(grad, numeric_grad(_plain, values, 3))
    finally:
        SCALE = saved
