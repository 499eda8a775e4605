"""The caller's arrays and tangents are never written by generated code, on success and
on failure: an argument the function writes into is copied on entry."""

import numpy as np
import pytest

import srcgrad as sg
from tests.soundness.oracle_modes import X, check_modes

TANGENT = np.array([1.0, -0.5, 0.25])


def writes_its_argument(x):
    x[0] = x[0] * 2.0
    return np.sum(x * x)


def writes_then_fails(x):
    x[0] = x[0] * 2.0
    if x[0] > 0.0:
        raise ValueError("after the write")
    return np.sum(x)


def appends_to_its_list(xs):
    xs.append(xs[0] * 3.0)
    return xs[0] * xs[-1]


def test_arguments_written_by_the_function_are_differentiated():
    check_modes(writes_its_argument)


@pytest.mark.parametrize("api", ["grad", "value_and_grad", "vjp", "jvp", "hvp"])
def test_the_callers_array_and_tangent_are_untouched(api):
    x, tangent = X.copy(), TANGENT.copy()
    if api == "jvp":
        sg.jvp(writes_its_argument)(x, tangent)
    elif api == "hvp":
        sg.hvp(writes_its_argument)(x, tangent)
    elif api == "vjp":
        _, backward = sg.vjp(writes_its_argument)(x)
        backward(1.0)
    else:
        getattr(sg, api)(writes_its_argument)(x)
    np.testing.assert_array_equal(x, X)
    np.testing.assert_array_equal(tangent, TANGENT)


@pytest.mark.parametrize("api", ["grad", "jvp"])
def test_a_failing_call_leaves_the_callers_array_as_it_was(api):
    x, tangent = X.copy(), TANGENT.copy()
    with pytest.raises(ValueError, match="after the write"):
        if api == "jvp":
            sg.jvp(writes_then_fails)(x, tangent)
        else:
            sg.grad(writes_then_fails)(x)
    np.testing.assert_array_equal(x, X)
    np.testing.assert_array_equal(tangent, TANGENT)


def test_a_list_argument_is_not_grown():
    xs = [0.5, 1.5]
    gradient = sg.grad(appends_to_its_list)(xs)
    assert xs == [0.5, 1.5]
    np.testing.assert_allclose(gradient, [2 * 3.0 * 0.5, 0.0])


def test_a_tape_over_a_writing_function_leaves_the_variable_as_it_was():
    variable = sg.Variable(X.copy())
    compiled = sg.differentiable(writes_its_argument)
    with sg.GradientTape() as tape:
        result = compiled(variable)
    gradient = np.asarray(tape.gradient(result, variable))
    np.testing.assert_allclose(gradient, [8 * X[0], 2 * X[1], 2 * X[2]])
    np.testing.assert_array_equal(variable.numpy(), X)


@pytest.mark.parametrize("api", ["value_and_grad", "vjp", "hvp"])
def test_a_failing_call_of_the_other_apis_leaves_the_callers_arrays_as_they_were(api):
    x, tangent = X.copy(), TANGENT.copy()
    with pytest.raises(ValueError, match="after the write"):
        if api == "hvp":
            sg.hvp(writes_then_fails)(x, tangent)
        else:
            getattr(sg, api)(writes_then_fails)(x)
    np.testing.assert_array_equal(x, X)
    np.testing.assert_array_equal(tangent, TANGENT)


def test_a_failing_tape_call_leaves_the_variable_as_it_was():
    variable = sg.Variable(X.copy())
    compiled = sg.differentiable(writes_then_fails)
    with pytest.raises(ValueError, match="after the write"):
        with sg.GradientTape():
            compiled(variable)
    np.testing.assert_array_equal(variable.numpy(), X)


def writes_its_dict(d):
    d["a"] = d["a"] * 2.0
    return d["a"] * d["b"]


def writes_an_item_of_its_list(xs):
    xs[0] = xs[0] * 3.0
    return xs[0] * xs[1]


def test_dict_and_list_arguments_written_by_the_function_are_left_as_they_were():
    d = {"a": 0.5, "b": 1.5}
    gradient = sg.grad(writes_its_dict)(d)
    assert d == {"a": 0.5, "b": 1.5}
    np.testing.assert_allclose([gradient["a"], gradient["b"]], [2.0 * 1.5, 2.0 * 0.5])
    xs = [0.5, 1.5]
    gradient = sg.grad(writes_an_item_of_its_list)(xs)
    assert xs == [0.5, 1.5]
    np.testing.assert_allclose(gradient, [3.0 * 1.5, 3.0 * 0.5])
