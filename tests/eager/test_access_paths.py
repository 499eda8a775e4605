"""implicit_gradients finds a Variable however the function reaches it."""

import types

import numpy as np

import srcgrad as sg

GLOBAL_W = sg.Variable(2.0)
CONTAINER = {"w": sg.Variable(3.0), "ws": [sg.Variable(4.0), sg.Variable(5.0)]}
MODEL = types.SimpleNamespace(w=sg.Variable(6.0), layers=[types.SimpleNamespace(
    w=sg.Variable(7.0))])


def global_read(x):
    return GLOBAL_W * x


def container_items(x):
    return CONTAINER["w"] * x + CONTAINER["ws"][1] * x


def attribute_chain(x):
    return MODEL.w * x + MODEL.layers[0].w * x


def loop_over_variables(x):
    total = 0.0
    for w in CONTAINER["ws"]:
        total = total + w * x
    return total


VECTOR_W = sg.Variable(np.array([0.5, 2.0]))


def item_of_a_variable(x):
    return x * VECTOR_W[1] + np.tanh(x * VECTOR_W[0])


def helper(x):
    return GLOBAL_W * x * x


def calls_a_helper(x):
    return helper(x) + 1.0


def grads(f, x=2.0):
    return {v.name: g for g, v in sg.implicit_gradients(f)(x)}


def test_global():
    assert grads(global_read) == {GLOBAL_W.name: 2.0}


def test_container_items():
    assert grads(container_items) == {CONTAINER["w"].name: 2.0, CONTAINER["ws"][1].name: 2.0}


def test_attribute_chain():
    assert grads(attribute_chain) == {MODEL.w.name: 2.0, MODEL.layers[0].w.name: 2.0}


def test_loop_over_a_list_of_variables():
    ws = CONTAINER["ws"]
    assert grads(loop_over_variables) == {ws[0].name: 2.0, ws[1].name: 2.0}


def test_item_of_a_global_variable():
    (grad, variable), = sg.implicit_gradients(item_of_a_variable)(2.0)
    assert variable is VECTOR_W
    assert np.allclose(grad, [2.0 * (1 - np.tanh(1.0) ** 2), 2.0])


def test_closure_cell():
    w = sg.Variable(1.5)

    def f(x):
        return np.sin(w * x)

    assert np.isclose(grads(f)[w.name], 2.0 * np.cos(3.0))


def test_inside_a_called_function():
    assert grads(calls_a_helper) == {GLOBAL_W.name: 4.0}


class Layer:
    def __init__(self):
        self.w = sg.Variable(np.array([1.0, -1.0]))
        self.b = sg.Variable(0.5)

    def loss(self, x):
        return np.sum((x * self.w + self.b) ** 2)


def test_attributes_of_self_in_a_method():
    layer = Layer()
    x = np.array([2.0, 3.0])
    pairs = sg.implicit_gradients(layer.loss)(x)
    residual = x * layer.w.numpy() + 0.5
    assert [v for _, v in pairs] == [layer.w, layer.b]
    assert np.allclose(pairs[0][0], 2 * residual * x)
    assert np.isclose(pairs[1][0], np.sum(2 * residual))


def test_variables_in_a_parameter_list():
    ws = [sg.Variable(2.0), sg.Variable(3.0)]

    def f(params, x):
        return params[0] * x + params[1] * x * x

    pairs = sg.implicit_gradients(f)(ws, 2.0)
    assert [(g, v) for g, v in pairs] == [(2.0, ws[0]), (4.0, ws[1])]
