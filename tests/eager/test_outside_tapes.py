"""A ``@sg.differentiable`` function called outside any tape runs its generated forward
on plain values (not operation by operation through Tensors); its result is what a
call under a tape returns."""

import threading

import numpy as np
import pytest

import srcgrad as sg

W = sg.Variable(np.array([0.5, -1.0, 2.0]))
X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])


@sg.differentiable
def loss(x):
    return np.sum(np.tanh(x @ W) ** 2)


@sg.differentiable
def pair(x):
    return x @ W, np.sum(x)


@sg.differentiable
def no_variables(x):
    return np.sum(x ** 2)


@sg.differentiable
def checked(x):
    if np.any(x < 0):
        raise ValueError("negative input")
    return np.sum(x @ W)


def _expected(x):
    return np.sum(np.tanh(x @ W.numpy()) ** 2)


def test_the_value_is_the_functions_and_a_tensor_when_it_read_variables():
    for _ in range(2):
        result = loss(X)
        assert isinstance(result, sg.Tensor) and np.isclose(result.numpy(), _expected(X))
    for _ in range(2):   # (the first call runs the function itself, see calls.py)
        first, second = pair(X)
        assert isinstance(first, sg.Tensor) and np.allclose(first.numpy(), X @ W.numpy())
        assert np.isclose(np.asarray(second), np.sum(X))
    plain = no_variables(X)
    assert not isinstance(plain, sg.Tensor) and np.isclose(plain, np.sum(X ** 2))


def test_the_generated_forward_runs_not_the_function():
    """After a first call that gave Tensors, the function's body runs per operation
    through Tensors only with tracked arguments or keywords."""
    from srcgrad.eager import calls

    ran = []
    original = calls._CallPlan.forward

    def spy(self, values, kwargs):
        ran.append(True)
        return original(self, values, kwargs)

    loss(X)   # (the first call runs the function: it gives Tensors, so it reads Variables)
    calls._CallPlan.forward = spy
    try:
        loss(X)
        assert ran
        ran.clear()
        assert np.isclose(loss(x=X).numpy(), _expected(X))   # keywords: the function
        assert np.isclose(loss(sg.constant(X)).numpy(), _expected(X))   # a Tensor argument
        assert not ran
    finally:
        calls._CallPlan.forward = original


def test_an_error_is_the_functions():
    with pytest.raises(ValueError, match="negative input"):
        checked(-X)
    assert np.isclose(checked(np.abs(X)).numpy(), np.sum(np.abs(X) @ W.numpy()))


def test_a_thread_without_a_tape_runs_the_forward_while_another_records():
    results = []
    entered, done = threading.Event(), threading.Event()

    def record():
        with sg.GradientTape():
            entered.set()
            done.wait(5)

    thread = threading.Thread(target=record)
    thread.start()
    entered.wait(5)
    try:
        results.append(loss(X))
    finally:
        done.set()
        thread.join()
    assert np.isclose(np.asarray(results[0]), _expected(X))


def test_a_variable_assigned_between_calls_is_read_anew():
    v = sg.Variable(2.0)

    @sg.differentiable
    def scaled(x):
        return x * v

    assert np.isclose(scaled(3.0).numpy(), 6.0)
    v.assign(5.0)
    assert np.isclose(scaled(3.0).numpy(), 15.0)


@sg.differentiable
def without_a_rule(x):
    return np.sum(np.i0(x * W.numpy()))


def test_a_function_whose_unit_does_not_compile_still_runs_outside_tapes():
    """Outside a tape it is the user's function (nothing to differentiate); under a tape
    the compile error is raised as before."""
    x = np.array([1.0, 2.0, 3.0])
    expected = np.sum(np.i0(x * W.numpy()))
    assert np.isclose(without_a_rule(x), expected)
    with pytest.raises(sg.MissingRuleError, match="numpy.i0"):
        with sg.GradientTape():
            without_a_rule(x)
