"""Code off the differentiated path runs as written: plotting, logging, I/O, calls on
any object and attribute writes. Given values being differentiated, such code runs with
them read-only when the function cannot read back what it kept; otherwise it is refused
(at compile time, or where it runs when it sits in a branch). Oracle: central finite
differences (forward mode: directional differences), never srcgrad's own numbers."""

import io
import logging

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import TransformError
from tests.conftest import numeric_grad
from tests.forward.helpers import close, directional_difference
from tests.programs import sinks

X = np.array([0.3, -1.2, 0.7])
V = np.array([1.0, -0.5, 2.0])
Y = np.array([0.5, 0.1, -0.4])


class Axes:
    """Keeps what it is given, like a matplotlib Axes keeps its lines."""

    def __init__(self):
        self.lines = []

    def plot(self, *data, **style):
        self.lines.append(([np.array(d) for d in data if not isinstance(d, str)], style))

    def set_title(self, text):
        self.title = text


class Scribbler:
    def plot(self, xs, ys, **style):
        ys[0] = 100.0   # writes into what it is given


class Settings:
    def get(self, key):
        return {"scale": 3.0}[key]


SETTINGS = Settings()
STATE = Settings()
LOG = []


def check_both_modes(f, *rest, expected_f=None):
    """sg.grad and sg.jvp of ``f`` w.r.t. its first argument against differences of
    ``expected_f`` (default ``f``), called with the same other arguments."""
    reference = expected_f or f
    expected = numeric_grad(lambda x: reference(x, *rest), (X,), 0)
    assert close(sg.grad(f)(X, *rest), expected)
    _, tangent = sg.jvp(f)(X, *rest, V)
    assert close(tangent, directional_difference(lambda x: reference(x, *rest), (X,), 0, V))


# -- code that touches no differentiated value: kept, never refused ------------------------

def fit(x, ax=None):
    y = np.sin(x) * x
    if ax:
        ax.plot(np.arange(3), np.ones(3), "k--")
        ax.set_title("fit")
    logging.getLogger("fit").debug("step %d", 3)
    print("fitting", len(x))
    return np.sum(y * y)


@pytest.mark.parametrize("ax", [None, Axes()], ids=["no-axes", "axes"])
def test_plotting_and_logging_without_differentiated_values(ax):
    check_both_modes(fit, ax, expected_f=lambda x, _: fit(x))
    if ax is not None:
        assert len(ax.lines) == 2 and ax.title == "fit"   # ran in both modes


def io_and_settings(x, out):
    out.write("loss\n")
    scale = SETTINGS.get("scale")
    STATE.calls = 1
    STATE.calls += 1
    STATE.name = "run"
    return np.sum(x * x) * scale + STATE.calls


def test_io_a_method_of_a_global_object_and_attribute_writes():
    check_both_modes(io_and_settings, io.StringIO(),
                     expected_f=lambda x, _: np.sum(x * x) * 3.0 + 2)
    assert STATE.calls == 2 and STATE.name == "run"


def counted(x, counter):
    counter.n = counter.n + 1
    return np.sum(np.exp(x)) * counter.n


class Counter:
    n = 0


def test_an_attribute_write_read_back_is_a_constant():
    counter = Counter()
    expected = numeric_grad(lambda x: np.sum(np.exp(x)), (X,), 0)
    assert close(sg.grad(counted)(X, counter), expected)
    assert counter.n == 1


# -- differentiated values handed out, never read back: kept, read-only ---------------------

def plotted(x, ax):
    y = np.sin(x) * x
    z = y * y
    ax.plot(x, y, color="k")
    ax.plot(x, z)
    return np.sum(z * x)


def test_a_call_given_differentiated_values_runs_with_them():
    check_both_modes(plotted, Axes())
    ax = Axes()
    sg.grad(plotted)(X, ax)
    (xs, ys), style = ax.lines[0]
    assert np.array_equal(xs, X) and close(ys, np.sin(X) * X) and style == {"color": "k"}


@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_a_write_into_a_value_handed_out_raises(derivative):
    x = X.copy()
    with pytest.raises(ValueError, match="read-only"):
        if derivative == "grad":
            sg.grad(plotted)(x, Scribbler())
        else:
            sg.jvp(plotted)(x, Scribbler(), V)
    assert np.array_equal(x, X)


class Tracker:
    pass


def tracked(x, tracker):
    loss = np.sum(np.tanh(x) ** 2)
    tracker.last_loss = loss
    tracker.steps = 1
    return loss


def test_an_attribute_write_of_a_differentiated_value_not_read_back():
    check_both_modes(tracked, Tracker())
    tracker = Tracker()
    sg.grad(tracked)(X, tracker)
    assert tracker.steps == 1 and tracker.last_loss == pytest.approx(np.sum(np.tanh(X) ** 2))


def in_a_loop(x, ax):
    total = 0.0
    for i in range(3):
        total = total + np.sum(x * i)
        ax.plot(x * total)
    return total


def test_a_call_in_a_loop_with_nothing_read_back():
    check_both_modes(in_a_loop, Axes())


def plotted_if_given(x, ax=None):
    y = x * x
    if ax:
        ax.plot(x, y)
    return np.sum((y - Y) ** 2)


def test_a_call_read_back_after_in_a_branch_not_taken():
    check_both_modes(plotted_if_given, None)


@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_the_same_call_refused_where_it_runs(derivative):
    with pytest.raises(TransformError, match="reads the global or closure variable `Y`"):
        if derivative == "grad":
            sg.grad(plotted_if_given)(X, Axes())
        else:
            sg.jvp(plotted_if_given)(X, Axes(), V)


# -- read back: refused -------------------------------------------------------------------

def attribute_read_back(x, obj):
    obj.w = x * 2
    return np.sum(obj.w * x)


def method_result_read_back(x, ax):
    ax.plot(x * x)
    return np.sum(ax.lines[-1][0][0] * x)


def through_a_global_list(x):
    sinks.keep(x * x)
    return np.sum(sinks.KEPT[-1] * x)


def through_a_function(x):
    sinks.keep(x * x)
    return np.sum(sinks.last_kept() * x)


def through_a_local_bound_before(x):
    kept = sinks.KEPT
    sinks.keep(x * x)
    return np.sum(kept[-1] * x)


def in_a_loop_read_before(x):
    total = 0.0
    for i in range(2):
        if i > 0:
            total = total + np.sum(sinks.KEPT[-1] * x)
        sinks.keep(x * x)
    return total


def through_a_buffer(x):
    buffer = np.zeros(3)
    sinks.fill(buffer, x)
    return np.sum(buffer * x)


def make_closure():
    box = Tracker()

    def through_a_closure(x):
        box.last = x * x
        return np.sum(box.last * x)
    return through_a_closure


def through_a_callee(x, tracker):
    y = sinks.scaled_and_kept(x, tracker)
    return np.sum(tracker.last * y)


READ_BACK = [
    (attribute_read_back, (Tracker(),), "reads `obj` again"),
    (method_result_read_back, (Axes(),), "reads `ax` again"),
    (through_a_global_list, (), "reads the global or closure variable `sinks.KEPT`"),
    (through_a_function, (), "calls `sinks.last_kept`, which reads the global `KEPT`"),
    (through_a_local_bound_before, (), "reads `kept` again"),
    (in_a_loop_read_before, (), "reads the global or closure variable `sinks.KEPT`"),
    (through_a_buffer, (), "called for its effect|what it keeps of it"),
    (make_closure(), (), "reads `box.last`"),
    (through_a_callee, (Tracker(),), "`sinks.scaled_and_kept` let a value being"),
]


@pytest.mark.parametrize("f, rest, message", READ_BACK, ids=[r[0].__name__ for r in READ_BACK])
@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_a_value_that_could_be_read_back_is_refused(f, rest, message, derivative):
    LOG.clear()
    with pytest.raises(TransformError, match=message):
        if derivative == "grad":
            sg.grad(f)(X, *rest)
        else:
            sg.jvp(f)(X, *rest, V)


def pair_of(a):
    return [a, a * 2]


def test_a_list_of_differentiated_values_handed_out_is_refused():
    def f(a, ax):
        xs = pair_of(a)
        ax.plot(xs)
        return np.sum(xs[0] * xs[1])

    with pytest.raises(TransformError, match="list holding values being differentiated"):
        sg.grad(f)(X, Axes())


def test_a_tuple_is_handed_out_item_by_item_read_only():
    def f(a, ax):
        pair = (a, a * 2)
        ax.plot(pair)
        return np.sum(pair[0] * pair[1])

    check_both_modes(f, Axes())


def test_an_attribute_of_a_differentiated_object_is_not_written():
    def f(x):
        box = [x]
        box.w = 2.0
        return np.sum(box[0])

    with pytest.raises(TransformError, match="attribute `.w` of a value being differentiated"):
        sg.grad(f)(X)


def test_a_pure_helper_called_after_is_no_read_back():
    def f(x, ax):
        y = x * 3.0
        ax.plot(y)
        return np.sum(sinks.pure_square(y))

    check_both_modes(f, Axes())


def callee_not_read_back(x, tracker):
    y = sinks.scaled_and_kept(x, tracker)
    return np.sum(y * x)


def test_a_callee_that_lets_a_value_out_not_read_back():
    check_both_modes(callee_not_read_back, Tracker())


def callee_plots_then_global(x, ax=None):
    y = sinks.plotted_when_given(x, ax)
    return np.sum((y - Y) ** 2)


def test_a_callee_plotting_in_a_branch_not_taken():
    check_both_modes(callee_plots_then_global, None)


@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_a_callee_plotting_refused_where_it_runs(derivative):
    with pytest.raises(TransformError, match="plotted_when_given` let a value"):
        if derivative == "grad":
            sg.grad(callee_plots_then_global)(X, Axes())
        else:
            sg.jvp(callee_plots_then_global)(X, Axes(), V)


def through_a_method(x, model):
    y = model.forward(x)
    return np.sum(model.last * y)


@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_a_method_that_lets_a_value_out_is_refused(derivative):
    with pytest.raises(TransformError, match="through a value or recursively"):
        if derivative == "grad":
            sg.grad(through_a_method)(X, sinks.Model())
        else:
            sg.jvp(through_a_method)(X, sinks.Model(), V)


GLOBAL_BUFFER = np.zeros(3)


def through_a_view_of_a_global(x):
    view = np.reshape(GLOBAL_BUFFER, (3,))
    sinks.fill(GLOBAL_BUFFER, x * x)
    return np.sum(view * x)


def computed_from_globals_before(x, ax):
    z = x * Y                     # a new array, though computed from a global
    ax.plot(x, z)
    return np.sum(z * z)


@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_a_view_of_a_global_bound_before_is_read_back(derivative):
    with pytest.raises(TransformError, match="reads `view` again"):
        if derivative == "grad":
            sg.grad(through_a_view_of_a_global)(X)
        else:
            sg.jvp(through_a_view_of_a_global)(X, V)


def test_a_value_computed_from_a_global_before_is_the_functions_own():
    check_both_modes(computed_from_globals_before, Axes())


def plotted_and_kept(x, ax):
    y = np.sin(x) * x
    z = np.sum(y * y)
    ax.plot(x, y)
    ax.last = z
    return z


def test_second_order_through_code_off_the_path():
    y, dy = np.sin(X) * X, np.sin(X) + X * np.cos(X)
    ddy = 2 * np.cos(X) - X * np.sin(X)
    expected = np.diag(2 * (dy * dy + y * ddy))   # the closed form
    assert close(sg.hessian(plotted_and_kept)(X, Axes()), expected)
    assert close(sg.hvp(plotted_and_kept)(X, Axes(), V), expected @ V)


class Scaler:
    def keep(self, value):
        self.kept = value

    def scale(self):
        self.kept *= 2.0   # in place, into what it kept


def changed_later_by_a_call(x, scaler):
    y = x * x
    scaler.kept = y
    scaler.scale()
    return np.sum(y * x)


@pytest.mark.parametrize("derivative", ["grad", "jvp"])
def test_a_value_stored_in_an_attribute_is_stored_read_only(derivative):
    with pytest.raises(ValueError, match="read-only"):
        if derivative == "grad":
            sg.grad(changed_later_by_a_call)(X, Scaler())
        else:
            sg.jvp(changed_later_by_a_call)(X, Scaler(), V)


def test_a_list_stored_in_an_attribute_is_refused():
    def f(x, tracker):
        pair = pair_of(x)
        tracker.pair = pair
        return np.sum(pair[0] * pair[1])

    with pytest.raises(TransformError, match="list holding values being differentiated"):
        sg.grad(f)(X, Tracker())
