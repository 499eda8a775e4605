"""JAX's has_aux and argnums, checked against central finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad


def loss_with_predictions(w, x, y):
    p = np.tanh(x @ w)
    return np.sum((p - y) ** 2), {"predictions": p, "count": len(y)}


def scaled(x, w):
    return np.sum(np.sin(x) * w), w * 2.0


@pytest.fixture
def data(rng):
    return rng.standard_normal(3), rng.standard_normal((5, 3)), rng.standard_normal(5)


def _loss_only(w, x, y):
    return loss_with_predictions(w, x, y)[0]


def test_grad_with_aux_returns_the_gradient_and_aux(data):
    w, x, y = data
    gradient, aux = sg.grad(loss_with_predictions, has_aux=True)(w, x, y)
    assert np.allclose(gradient, numeric_grad(_loss_only, (w, x, y), 0), atol=1e-6)
    assert np.allclose(aux["predictions"], np.tanh(x @ w)) and aux["count"] == 5


def test_value_and_grad_with_aux_nests_value_and_aux(data):
    w, x, y = data
    (value, aux), gradient = sg.value_and_grad(loss_with_predictions, has_aux=True)(w, x, y)
    assert np.isclose(value, _loss_only(w, x, y))
    assert np.allclose(aux["predictions"], np.tanh(x @ w))
    assert np.allclose(gradient, numeric_grad(_loss_only, (w, x, y), 0), atol=1e-6)


def test_vjp_with_aux_returns_value_backward_and_aux(data):
    w, x, y = data
    value, backward, aux = sg.vjp(loss_with_predictions, has_aux=True)(w, x, y)
    assert np.isclose(value, _loss_only(w, x, y)) and aux["count"] == 5
    assert np.allclose(backward(2.0), 2.0 * numeric_grad(_loss_only, (w, x, y), 0),
                       atol=1e-6)


def test_aux_that_depends_on_the_argument_adds_nothing_to_the_gradient():
    x, w = np.array([0.3, -1.2]), np.array([2.0, 0.5])
    for wrt in (0, 1):
        gradient, aux = sg.grad(scaled, wrt=wrt, has_aux=True)(x, w)
        expected = np.cos(x) * w if wrt == 0 else np.sin(x)   # closed form
        assert np.allclose(gradient, expected) and np.allclose(aux, w * 2.0)


def test_has_aux_with_check_nan_names_the_line():
    def root(x):
        return np.sum(np.sqrt(x)), x

    with pytest.raises(FloatingPointError):
        sg.grad(root, has_aux=True, check_nan=True)(np.array([1.0, 0.0]))
    gradient, _ = sg.grad(root, has_aux=True, check_nan=True)(np.array([1.0, 4.0]))
    assert np.allclose(gradient, [0.5, 0.25])


def test_has_aux_refuses_a_function_that_returns_no_pair():
    with pytest.raises(TypeError, match=r"pair \(output, aux\); it returned a float"):
        sg.grad(lambda x: x * 2.0, has_aux=True)(1.0)
    with pytest.raises(TypeError, match="a tuple of length 3"):
        sg.grad(lambda x: (x, x, x), has_aux=True)(1.0)


def test_argnums_is_an_alias_of_wrt(data):
    w, x, y = data
    by_index = sg.grad(_loss_only, argnums=1)(w, x, y)
    assert np.allclose(by_index, numeric_grad(_loss_only, (w, x, y), 1), atol=1e-6)
    both = sg.value_and_grad(_loss_only, argnums=(0, 2))(w, x, y)[1]
    assert np.allclose(both[0], numeric_grad(_loss_only, (w, x, y), 0), atol=1e-6)
    assert np.allclose(both[1], numeric_grad(_loss_only, (w, x, y), 2), atol=1e-6)
    value, backward = sg.vjp(_loss_only, argnums=2)(w, x, y)
    assert np.allclose(backward(1.0), numeric_grad(_loss_only, (w, x, y), 2), atol=1e-6)


def test_argnums_takes_indices_only_and_not_with_wrt():
    with pytest.raises(TypeError, match="not both"):
        sg.grad(_loss_only, wrt=0, argnums=1)
    with pytest.raises(TypeError, match="argnums takes an int"):
        sg.grad(_loss_only, argnums="w")
    with pytest.raises(ValueError, match="out of range"):
        sg.grad(_loss_only, argnums=3)


def product(x, w):
    return np.sin(x) * w ** 2


def test_argnums_on_forward_mode_and_higher_order():
    x, w = np.array([0.4, -0.7]), np.array([1.5, 0.5])
    _, tangent = sg.jvp(product, argnums=1)(x, w, np.ones(2))
    assert np.allclose(tangent, 2 * np.sin(x) * w)                        # closed form
    assert np.allclose(sg.jacobian(product, argnums=1)(x, w), np.diag(2 * np.sin(x) * w))
    assert np.allclose(sg.hessian(lambda x, w: np.sum(product(x, w)), argnums=1)(x, w),
                       np.diag(2 * np.sin(x)))
    assert np.allclose(sg.hvp(lambda x, w: np.sum(product(x, w)), argnums=0)(x, w, np.ones(2)),
                       -np.sin(x) * w ** 2)
