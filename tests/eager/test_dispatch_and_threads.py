"""A decorated function under a tape is ONE node running the generated backward; each
thread records on its own tape; Variables behave as TF's."""

import threading

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.eager.calls import CallNode

W = sg.Variable(np.array([0.5, -1.0, 2.0]))


@sg.differentiable
def model(x):
    h = np.tanh(x * W)
    total = 0.0
    for i in range(3):
        total = total + h[i] ** 2
    return total


def test_decorated_call_is_one_node_with_the_generated_backward(monkeypatch):
    x = sg.constant(np.array([1.0, 2.0, 3.0]))
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = model(x)
    (node,) = tape._nodes
    assert isinstance(node, CallNode)
    generated = node.variant_backward   # the variant's (eager.static) generated backward
    assert "def model_backward" in generated.source
    assert "_sg.variable_cotangent" not in generated.source
    calls = []

    def spy(saved, g):
        calls.append(g)
        return generated(saved, g)

    monkeypatch.setattr(node, "variant_backward", spy)
    gx, gw = tape.gradient(y, [x, W])
    assert len(calls) == 1
    h = np.tanh(x.numpy() * W.numpy())
    assert np.allclose(gx, 2 * h * (1 - h ** 2) * W.numpy())
    assert np.allclose(gw, 2 * h * (1 - h ** 2) * x.numpy())


def test_persistent_tape_reruns_the_generated_backward():
    x = sg.constant(np.array([1.0, 2.0, 3.0]))
    with sg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = model(x)
    first, second = tape.gradient(y, x), tape.gradient(y, x)
    assert np.allclose(first, second)


def test_each_thread_has_its_own_tape():
    results, errors = {}, []

    def work(k):
        try:
            w = sg.Variable(float(k))
            with sg.GradientTape() as tape:
                y = w * w * w
            results[k] = (tape.gradient(y, w), tape.watched_variables() == (w,))
        except Exception as exc:   # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == {k: (3.0 * k * k, True) for k in range(1, 9)}


def test_variable_api():
    v = sg.Variable(np.array([1.0, 2.0]), name="v")
    assert v.name == "v" and v.trainable and v.shape == (2,) and v.dtype == np.float64
    assert np.allclose(v.numpy(), [1.0, 2.0]) and np.allclose(v.value, [1.0, 2.0])
    v.assign_add(np.array([1.0, 1.0]))
    v.assign_sub(np.array([0.5, 0.5]))
    assert np.allclose(v.numpy(), [1.5, 2.5])
    assert isinstance(v * 2.0, sg.Tensor) and isinstance(np.sin(v), sg.Tensor)
    assert isinstance(v > 2.0, sg.Tensor) and list((v > 2.0).numpy()) == [False, True]
    with pytest.raises(ValueError, match="Cannot assign value of shape"):
        v.assign(np.zeros(3))
    assert sg.constant(3.0).numpy() == 3.0


def test_plain_grad_treats_variables_as_constants():
    w = sg.Variable(3.0)

    def f(x):
        return w * x * x

    g = sg.grad(f)(2.0)
    assert g == 12.0 and not isinstance(g, sg.Tensor)
