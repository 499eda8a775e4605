"""Code off the differentiated path runs as written: plotting, logging, calls on
arbitrary objects whose result is unused. The differentiated values they are given are
passed read-only, so a call that writes into one fails instead of changing the
derivative. Oracle: central finite differences."""

import logging

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import TransformError
from tests.conftest import numeric_grad
from tests.forward.helpers import close, directional_difference
from tests.programs.sinks import fill, push


class Recorder:
    """An axes-like object: keeps what it is given."""

    def __init__(self):
        self.calls = []

    def plot(self, xs, ys, **style):
        self.calls.append((np.array(xs), np.array(ys), style))


class Scribbler:
    def plot(self, xs, ys, **style):
        xs[0] = 100.0   # writes into its argument


def fit(x, ax=None):
    y = np.sin(x) * x
    if ax:
        ax.plot(x, y, color="k")
    logging.getLogger("fit").debug("loss %s", np.sum(y))
    print("loss", np.sum(y))
    return np.sum(y * y)


X = np.array([0.3, -1.2, 0.7])


@pytest.mark.parametrize("ax", [None, Recorder()], ids=["no-axes", "axes"])
def test_reverse_plotting_kept(ax):
    expected = numeric_grad(lambda x: fit(x, None), (X,), 0)
    assert np.allclose(sg.grad(fit)(X, ax), expected, rtol=1e-5, atol=1e-7)


def test_the_call_runs_with_the_values():
    ax = Recorder()
    sg.grad(fit)(X, ax)
    xs, ys, style = ax.calls[0]
    assert np.array_equal(xs, X) and np.allclose(ys, np.sin(X) * X)
    assert style == {"color": "k"}


@pytest.mark.parametrize("ax", [None, Recorder()], ids=["no-axes", "axes"])
def test_forward_plotting_kept(ax):
    v = np.array([1.0, -0.5, 2.0])
    _, tangent = sg.jvp(fit)(X, ax, v)
    assert close(tangent, directional_difference(lambda x: fit(x, None), (X,), 0, v))


@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_a_write_into_an_argument_raises(derivative):
    x = X.copy()
    with pytest.raises(ValueError, match="read-only"):
        if derivative == "grad":
            sg.grad(fit)(x, Scribbler())
        else:
            sg.jvp(fit)(x, Scribbler(), np.ones(3))
    assert np.array_equal(x, X)   # the caller's array is untouched


def log_all(xs, sink):
    sink.write(xs)
    return np.sum(xs[0] * xs[1])


class Sink:
    def write(self, value):
        self.value = value


def pair_of(a):
    return [a, a * 2]


def test_a_list_of_differentiated_values_is_refused():
    def f(a, sink):
        xs = pair_of(a)
        sink.write(xs)
        return np.sum(xs[0] * xs[1])

    refused = "list holding values being differentiated|called for its effect"
    with pytest.raises(TransformError, match=refused):
        sg.grad(f)(X, Sink())


def test_a_tuple_is_passed_item_by_item():
    def f(a, sink):
        pair = (a, a * 2)
        sink.write(pair)
        return np.sum(pair[0] * pair[1])

    sink = Sink()
    expected = numeric_grad(lambda a: f(a, Sink()), (X,), 0)
    assert np.allclose(sg.grad(f)(X, sink), expected, rtol=1e-5, atol=1e-7)
    assert not sink.value[0].flags.writeable


def test_a_dict_method_on_an_unknown_object_stays_refused():
    def f(a, store):
        store.setdefault("k", a)
        return np.sum(a)

    with pytest.raises(TransformError, match="in-place method call `.setdefault\\(\\)`"):
        sg.grad(f)(X, {})


def test_a_numpy_function_writing_into_another_argument_stays_refused():
    def f(a):
        buffer = np.zeros(3)
        np.copyto(buffer, a)
        return np.sum(buffer)

    with pytest.raises(TransformError, match="`numpy.copyto` is called for its effect"):
        sg.grad(f)(X)


@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_a_call_given_a_local_container_or_array_stays_refused(derivative):
    def through_a_list(a):
        stack = []
        push(stack, a * a)
        return np.sum(stack[0])

    def through_a_buffer(a):
        buffer = np.zeros(3)
        fill(buffer, a)
        return np.sum(buffer)

    for f in (through_a_list, through_a_buffer):
        with pytest.raises(TransformError, match="called for its effect"):
            if derivative == "grad":
                sg.grad(f)(X)
            else:
                sg.jvp(f)(X, np.ones(3))


class Keeper:
    def __init__(self):
        self.seen = []

    def plot(self, value):
        self.seen.append(value)


@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_a_call_on_an_object_read_back_later_stays_refused(derivative):
    def f(a, ax):
        y = a * 2
        ax.plot(y)
        return np.sum(ax.seen[-1] * a)

    with pytest.raises(TransformError, match="called for its effect"):
        if derivative == "grad":
            sg.grad(f)(X, Keeper())
        else:
            sg.jvp(f)(X, Keeper(), np.ones(3))
