"""gradients_function / value_and_gradients_function / implicit_*: TF's behaviour and
messages, gradients checked against closed forms and finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad


def poly(x, y):
    return x ** 2 * y + np.sin(y)


def test_gradients_function_returns_a_list_of_closed_forms():
    grads = sg.gradients_function(poly)(1.5, 0.5)
    assert isinstance(grads, list)
    assert np.allclose(grads, [2 * 1.5 * 0.5, 1.5 ** 2 + np.cos(0.5)])


def test_params_by_index_and_by_name_agree():
    by_index = sg.gradients_function(poly, params=[1])(1.5, 0.5)
    by_name = sg.gradients_function(poly, params=["y"])(1.5, 0.5)
    assert np.allclose(by_index, by_name) and len(by_index) == 1


def test_mixed_params_are_rejected():
    with pytest.raises(ValueError, match=r"params must be all strings or all integers; "
                                         r"got \[0, 'y'\]\."):
        sg.gradients_function(poly, params=[0, "y"])(1.0, 2.0)


def test_unknown_param_name():
    with pytest.raises(ValueError, match="'z' is not in list"):
        sg.gradients_function(poly, params=["z"])(1.0, 2.0)


def test_keyword_arguments_are_rejected_with_tfs_message():
    message = "Functions to be differentiated cannot receive keyword arguments."
    with pytest.raises(ValueError, match=message):
        sg.gradients_function(poly)(1.0, y=2.0)
    with pytest.raises(ValueError, match=message):
        sg.value_and_gradients_function(poly)(1.0, y=2.0)


def test_unconnected_and_int_arguments_get_none():
    def f(x, unused, n):
        return x * 3.0 * n

    assert sg.gradients_function(f)(2.0, 5.0, 4) == [12.0, None, None]


def test_vector_output_is_summed_or_weighted_by_dy():
    x = np.array([0.1, 0.2, 0.3])

    def f(x):
        return np.exp(x)

    [g] = sg.gradients_function(f)(x)
    assert np.allclose(g, np.exp(x))
    dy = np.array([1.0, -2.0, 0.5])
    value, [g] = sg.value_and_gradients_function(f)(x, dy=dy)
    assert np.allclose(value, np.exp(x)) and np.allclose(g, dy * np.exp(x))


def test_matches_finite_differences_on_arrays(rng):
    w = rng.standard_normal((3, 2))
    x = rng.standard_normal(3)

    def f(w, x):
        return np.sum(np.tanh(x @ w) ** 2)

    gw, gx = sg.gradients_function(f)(w, x)
    assert np.allclose(gw, numeric_grad(f, [w, x], 0), atol=1e-6)
    assert np.allclose(gx, numeric_grad(f, [w, x], 1), atol=1e-6)


def test_none_result_message():
    def forgot(x):
        x * 2.0

    with pytest.raises(ValueError, match="Cannot differentiate a function that returns "
                                         "None; did you forget to return a value from forgot"):
        sg.gradients_function(forgot)(1.0)
    w = sg.Variable(1.0)

    def forgot_too(x):
        w * x

    with pytest.raises(ValueError, match="return a value from forgot_too"):
        sg.implicit_gradients(forgot_too)(1.0)


def test_closed_over_variables_are_constants_for_gradients_function():
    w = sg.Variable(3.0)
    assert sg.gradients_function(lambda x: w * x * x)(2.0) == [12.0]


def test_implicit_no_trainable_variables():
    frozen = sg.Variable(1.0, trainable=False)
    message = "No trainable variables were accessed while the function was being computed."
    with pytest.raises(ValueError, match=message):
        sg.implicit_gradients(lambda x: x * 2.0)(1.0)
    with pytest.raises(ValueError, match=message):
        sg.implicit_gradients(lambda x: frozen * x)(1.0)


def test_implicit_read_but_unconnected_variable_gets_none():
    a, b = sg.Variable(2.0), sg.Variable(5.0)

    def f(x):
        unused = b * 1.0
        return a * x + 0.0 * np.floor(unused)

    value, pairs = sg.implicit_value_and_gradients(f)(4.0)
    assert value == 8.0
    assert pairs[0] == (4.0, a) and pairs[1][0] is None and pairs[1][1] is b


def test_implicit_pairs_come_in_creation_order():
    first, second = sg.Variable(1.0), sg.Variable(2.0)

    def f(x):
        return second * x + first * x * x

    pairs = sg.implicit_gradients(f)(3.0)
    assert [v for _, v in pairs] == [first, second]
    assert [g for g, _ in pairs] == [9.0, 3.0]


def test_implicit_gradient_of_a_vector_output_is_of_its_sum():
    w = sg.Variable(np.array([1.0, 2.0, 3.0]))
    [(g, _)] = sg.implicit_gradients(lambda x: w * x)(2.0)
    assert np.allclose(g, [2.0, 2.0, 2.0])


def test_implicit_matches_finite_differences(rng):
    W = sg.Variable(rng.standard_normal((4, 3)))
    x = rng.standard_normal(4)

    def loss(x):
        return np.sum(np.sin(x @ W) ** 2)

    [(g, _)] = sg.implicit_gradients(loss)(x)
    expected = numeric_grad(lambda w: np.sum(np.sin(x @ w) ** 2), [W.numpy()], 0)
    assert np.allclose(g, expected, atol=1e-6)


def test_implicit_passes_keyword_arguments_to_f():
    w = sg.Variable(2.0)

    def f(x, scale=1.0):
        return w * x * scale

    [(g, _)] = sg.implicit_gradients(f)(3.0, scale=10.0)
    assert g == 30.0


def test_implicit_variable_passed_as_argument():
    w = sg.Variable(2.0)
    [(g, v)] = sg.implicit_gradients(lambda v, x: v * v * x)(w, 3.0)
    assert v is w and g == 12.0


def test_implicit_exposes_its_generated_source():
    w = sg.Variable(2.0)

    def f(x):
        return w * x

    grad_fn = sg.implicit_value_and_gradients(f)
    grad_fn(1.0)
    assert "_sg.variable_cotangent(w, " in sg.source(grad_fn)
