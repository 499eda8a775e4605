"""Closures of one ``def`` share generated code (``compiler.code_cache``) only when what
generation read from their cells is the same: a rebound cell holding another array or
float gives that closure's gradient; another function, int, list or Variable in a cell
is compiled for (or guarded), never answered with the first closure's code. Each
gradient against central finite differences of the closure itself."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.compiler import reverse
from tests.conftest import numeric_grad

W = np.array([0.3, -0.7, 1.1])


def expected(f, x=W):
    return numeric_grad(lambda v: f(v.copy()), [x.copy()], 0)


def make_scaled(data, scale):
    def loss(w):
        return np.sum((w * data - 1.0) ** 2) * scale
    return loss


def make_activated(act, data):
    def loss(w):
        return np.sum(act(w * data))
    return loss


def make_powered(power):
    def loss(w):
        return np.sum(w ** power)
    return loss


def make_from_list(items):
    def loss(w):
        total = 0.0
        for item in items:
            total = total + np.sum(w * item)
        return total
    return loss


def test_a_rebound_array_or_float_cell_reuses_the_code_with_the_new_values():
    first = make_scaled(np.array([1.0, 2.0, 3.0]), 2.0)
    np.testing.assert_allclose(sg.grad(first)(W), expected(first), rtol=1e-6)
    before = dict(reverse.COMPILE_COUNT)
    for data, scale in [(np.array([-1.0, 0.5, 4.0]), 0.25), (np.array([2.0, 2.0, -3.0]), 7.0)]:
        loss = make_scaled(data, scale)
        np.testing.assert_allclose(sg.grad(loss)(W), expected(loss), rtol=1e-6)
    assert reverse.COMPILE_COUNT["reverse"] == before["reverse"]
    assert reverse.COMPILE_COUNT["shared"] == before["shared"] + 2


def test_a_cell_rebound_after_the_gradient_function_was_made_is_read_when_it_runs():
    data = np.array([1.0, 2.0, 3.0])

    def loss(w):
        return np.sum((w * data) ** 2)

    df = sg.grad(loss)
    np.testing.assert_allclose(df(W), expected(loss), rtol=1e-6)
    data = np.array([-2.0, 0.5, 1.5])   # noqa: F841 (read through the cell)
    np.testing.assert_allclose(df(W), expected(loss), rtol=1e-6)


@pytest.mark.parametrize("acts", [(np.tanh, np.sin), (np.sin, np.exp)])
def test_another_function_in_a_cell_is_not_answered_with_the_first_code(acts):
    data = np.array([1.0, 2.0, 3.0])
    for act in acts:
        loss = make_activated(act, data)
        np.testing.assert_allclose(sg.grad(loss)(W), expected(loss), rtol=1e-6)


def test_another_int_list_or_shape_in_a_cell_is_compiled_for():
    for power in (2, 3, 2):
        loss = make_powered(power)
        np.testing.assert_allclose(sg.grad(loss)(W), expected(loss), rtol=1e-6)
    for items in ([W * 2.0], [W, -W, np.ones(3)], (np.ones(3), 2.0 * np.ones(3))):
        loss = make_from_list(items)
        np.testing.assert_allclose(sg.grad(loss)(W), expected(loss), rtol=1e-6)
    before = dict(reverse.COMPILE_COUNT)
    loss = make_scaled(np.ones((2, 3)), 1.0)   # another shape: generated for it
    np.testing.assert_allclose(sg.grad(loss)(W), expected(loss), rtol=1e-6)
    loss = make_scaled(np.ones(3, dtype=np.float32), 1.0)   # another dtype
    np.testing.assert_allclose(sg.grad(loss)(W), expected(loss), rtol=1e-5)
    assert reverse.COMPILE_COUNT["shared"] == before["shared"]


def make_weighted(variable):
    def loss(w):
        return np.sum(w * variable * variable)
    return loss


def test_a_variable_in_a_cell_gets_its_own_gradient():
    for start in (1.5, -0.5):
        variable = sg.Variable(np.array([start, 2.0 * start, 0.1]))
        loss = make_weighted(variable)
        value = variable.numpy()
        np.testing.assert_allclose(sg.grad(loss)(W), value * value, rtol=1e-6)
        (gradient, seen), = sg.implicit_gradients(loss)(W)
        assert seen is variable
        np.testing.assert_allclose(np.asarray(gradient), 2.0 * W * value, rtol=1e-6)
