"""``make_vjp`` as TF's ``backprop.make_vjp``: the value now, ``vjp(dy=None)`` later, a
list of gradients of the (weighted) sum of the outputs; persistent=False runs once."""

import numpy as np
import pytest

import srcgrad as sg
import srcgrad.tfe as tfe
from tests.conftest import numeric_grad


def f(x, y):
    return np.sin(x) * y ** 2


def two_outputs(x, y):
    return x * y, np.exp(x)


def test_vjp_gives_the_gradients_of_the_summed_output():
    x, y = np.array([0.3, -1.2]), 1.7
    result, vjp = sg.make_vjp(f)(x, y)
    assert np.allclose(result, np.sin(x) * y ** 2)

    def total(x, y):
        return np.sum(f(x, y))

    dx, dy = vjp()
    assert np.allclose(dx, numeric_grad(total, (x, y), 0))
    assert np.isclose(dy, numeric_grad(total, (x, y), 1))
    weights = np.array([2.0, -0.5])
    dx_w, _ = vjp(weights)   # persistent (the default): a second call works
    assert np.allclose(dx_w, numeric_grad(lambda x, y: np.sum(weights * f(x, y)), (x, y), 0))


def test_dy_weights_each_output_and_params_pick_arguments():
    x, y = 0.4, 2.0
    (prod, ex), vjp = sg.make_vjp(two_outputs, params=["x"])(x, y)
    assert np.isclose(prod, 0.8) and np.isclose(ex, np.exp(0.4))
    [dx] = vjp([3.0, 0.5])
    assert np.isclose(dx, numeric_grad(lambda x: 3.0 * x * y + 0.5 * np.exp(x), (x,), 0))


def test_an_integer_argument_gets_none():
    """TF: an int argument becomes an int32 tensor, whose gradient is None."""
    _, vjp = sg.make_vjp(lambda x, n: x * n)(1.5, 3)
    dx, dn = vjp()
    assert np.isclose(dx, 3.0) and dn is None


def test_persistent_false_runs_once():
    """TF: a second call of a non-persistent vjp raises (its InternalError: 'Internal
    state of the gradient tape is invalid...')."""
    _, vjp = sg.make_vjp(f, persistent=False)(0.5, 2.0)
    dx, _ = vjp()
    assert np.isclose(dx, np.cos(0.5) * 4.0)
    with pytest.raises(RuntimeError, match="Internal state of the gradient tape is invalid"):
        vjp()


def test_keyword_arguments_and_none_results_are_refused_as_in_tf():
    with pytest.raises(AssertionError, match="The gradient function can't take keyword "
                                             "arguments."):
        sg.make_vjp(f)(1.0, y=2.0)

    def nothing(x):
        x * 2.0

    with pytest.raises(ValueError, match="Cannot differentiate a function that returns None; "
                                         "did you forget to return a value from nothing?"):
        sg.make_vjp(nothing)(1.0)


def test_tfe_make_vjp_returns_tensors():
    result, vjp = tfe.make_vjp(f)(0.5, 2.0)
    assert isinstance(result, sg.Tensor) and np.isclose(result.numpy(), np.sin(0.5) * 4.0)
    dx, dy = vjp()
    assert isinstance(dx, sg.Tensor) and np.isclose(dx.numpy(), np.cos(0.5) * 4.0)
    assert np.isclose(dy.numpy(), np.sin(0.5) * 4.0)
