"""A name that other threads rebind while a derivative runs: each call's (value,
gradient) pair comes from one binding, never from two (the generated code reads each
guarded name once: through the object its entry guard compared it with). Fixed counts."""

import sys
import threading
import types

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import InternalError
from srcgrad.runtime import dynamic

ACT = np.tanh
X = np.array([0.3, -0.8, 1.4])
CALLS, THREADS = 1500, 3
EXPECTED = {   # value, gradient of f under each binding (closed forms)
    "tanh": (np.sum(np.tanh(X) * 2.0), 2.0 * (1 - np.tanh(X) ** 2)),
    "sin": (np.sum(np.sin(X) * 2.0), 2.0 * np.cos(X)),
}


def f(x):
    return np.sum(ACT(x) * 2.0)


@pytest.fixture(autouse=True)
def frequent_switches():
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def through_vjp(vjp):
    def run(x):
        value, backward = vjp(x)
        return value, backward(1.0)
    return run


def which(value, grad):
    for name, (v, g) in EXPECTED.items():
        if np.isclose(value, v) and np.allclose(grad, g):
            return name
    return None


@pytest.mark.parametrize("api", ["value_and_grad", "vjp"])
def test_value_and_gradient_come_from_one_binding(api):
    global ACT
    run = sg.value_and_grad(f) if api == "value_and_grad" else through_vjp(sg.vjp(f))
    run(X)
    for act in (np.sin, np.tanh):   # both bindings' code generated before the threads
        ACT = act
        run(X)
    stop, mixed, errors = threading.Event(), [], []

    def rebind():
        global ACT
        while not stop.is_set():
            ACT = np.sin if ACT is np.tanh else np.tanh

    def differentiate():
        try:
            for _ in range(CALLS):
                value, grad = run(X)
                if which(value, grad) is None:
                    mixed.append((value, grad))
        except Exception as error:   # (reported below)
            errors.append(error)

    rebinder = threading.Thread(target=rebind)
    workers = [threading.Thread(target=differentiate) for _ in range(THREADS)]
    rebinder.start()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    stop.set()
    rebinder.join(10)
    ACT = np.tanh
    assert not errors and not mixed, (errors[:1], len(mixed))


class _Regenerating:
    """A generated function whose guard misses ``misses`` times: each miss regenerates
    the same function (what the guard read changed back meanwhile, or never holds)."""

    unit = types.SimpleNamespace(fn=f)

    def __init__(self, misses):
        self.misses = misses

    def __call__(self, x):
        if self.misses:
            self.misses -= 1
            return dynamic._not_itself(self, self)(x)
        return x * 2.0


def test_a_guard_missed_while_a_binding_changes_back_runs_again():
    assert _Regenerating(3)(1.5) == 3.0


def test_a_guard_that_never_holds_is_an_internal_error_not_a_recursion():
    with pytest.raises(InternalError, match="cannot hold"):
        _Regenerating(10 ** 6)(1.5)
