"""Programs built to break what a fast path may assume: that a Python float stays a
float (and never meets a zero it divides by), that a buffer written in place is not
the value a saved name still holds, that a loop-carried value keeps one shape (a
scalar that becomes an array, a state that grows), that a cached variant still fits
the arguments' shapes, dtypes and types and the globals it read. Each gradient against
central finite differences, in reverse (``grad``) and forward (``jvp``) mode, for
every argument, on several argument kinds in turn through one derivative function."""

import math

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

RNG = np.random.default_rng(17)
CLOSE = dict(rtol=1e-5, atol=1e-6)


def as_float(v):
    return np.asarray(v, dtype=float)


def check_every_argument(f, args, wrt=None, derivative=None):
    """Reverse and forward derivative of ``f`` w.r.t. each argument index in ``wrt``
    against central finite differences; ``derivative`` caches grad functions so one
    compiled unit meets several argument kinds."""
    wrt = range(len(args)) if wrt is None else wrt
    derivative = {} if derivative is None else derivative
    for index in wrt:
        expected = numeric_grad(lambda *a: float(f(*fresh(a))), fresh(args), index)
        gradient = derivative.setdefault(("grad", index), sg.grad(f, wrt=index))(*fresh(args))
        np.testing.assert_allclose(as_float(gradient), as_float(expected), **CLOSE,
                                   err_msg=f"grad w.r.t. argument {index}")
        assert np.shape(gradient) == np.shape(args[index])
        direction = RNG.standard_normal(np.shape(args[index]))
        if np.ndim(args[index]) == 0:
            direction = float(direction)
        jvp = derivative.setdefault(("jvp", index), sg.jvp(f, wrt=index))
        value, tangent = jvp(*fresh(args), direction)
        np.testing.assert_allclose(as_float(value), as_float(f(*fresh(args))), **CLOSE)
        np.testing.assert_allclose(as_float(tangent), np.sum(as_float(expected) * direction),
                                   **CLOSE, err_msg=f"jvp w.r.t. argument {index}")


def fresh(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


# --- Python floats ------------------------------------------------------------------

def ratio_unless_zero(x, y):
    if y == 0.0:
        return x * 2.0
    return x / y + y


def recurrence_starting_from_an_int(w, c):
    h = 0
    for _ in range(6):
        h = np.tanh(h * w + c) + 0.1 * np.sin(h)
    return h


def horner_with_int_coefficients(x):
    s = 1
    for k in range(5):
        s = s * x + k
    return s


def builtins_on_floats(x, y):
    a = max(x, 0.25) * min(x, y)
    b = abs(x - y) + math.exp(x) * math.log(1.0 + y * y)
    return a + b + x ** -2 + pow(y, 3)


def floor_division_and_remainder(x, y):
    return (x % 1.5) * y + x // 0.7 + np.fmod(y, 0.9)


def integer_power_from_the_loop(x):
    s = 0.0
    for k in range(4):
        s = s + x ** k / (k + 1)
    return s


# --- arrays written in place ----------------------------------------------------------

def in_place_add_after_a_saved_read(x):
    h = x * 2.0
    y = np.sin(h)
    h += 1.0
    return np.sum(y * h)


def in_place_multiply_of_a_saved_factor(x):
    a = x * 3.0
    b = a * a
    a *= x
    return np.sum(b + a)


def alias_of_a_buffer_written_in_place(x):
    h = x + 1.0
    keep = h
    h *= 2.0
    return np.sum(np.sin(keep) * x)


def buffer_written_each_iteration(x):
    out = np.zeros_like(x)
    acc = 0.0
    for i in range(3):
        out[:] = np.sin(x * (i + 1.0))
        acc = acc + np.sum(out * out)
    return acc


def accumulator_buffer_in_a_loop(x):
    acc = np.zeros_like(x)
    for i in range(3):
        acc += x * acc + np.cos(x * i)
    return np.sum(acc * acc)


def matrix_state_updated_in_place(W, x):
    h = np.tanh(W @ x)
    for _ in range(3):
        h += np.tanh(W @ h)
    return np.sum(h ** 2)


# --- loop-carried shapes ----------------------------------------------------------------

def scalar_state_that_becomes_an_array(W, xs):
    h = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(W @ xs[t] + h)
    return np.sum(h)


def row_state_broadcast_to_a_batch(W, xs):
    h = np.zeros((1, W.shape[1]))
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ W + h)
        loss = loss + np.sum(h * h)
    return loss


def state_that_grows(x):
    h = x[:1]
    s = 0.0
    for i in range(1, 4):
        h = np.concatenate([h, x[i - 1:i] * h[-1:]])
        s = s + np.sum(np.tanh(h))
    return s


def states_stacked_after_the_loop(W, xs):
    h = np.zeros(W.shape[0])
    hs = []
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + xs[t])
        hs.append(h)
    return np.sum(np.stack(hs) ** 2)


def lstm_like_tuple_state(W, xs):
    state = (np.zeros(W.shape[0]), np.zeros(W.shape[0]))
    for t in range(xs.shape[0]):
        h, c = state
        z = W @ h + xs[t]
        c = c * 0.5 + np.tanh(z)
        state = (np.tanh(c) * np.sin(z), c)
    return np.sum(state[0]) + np.sum(state[1] ** 2)


def data_dependent_trip_count(x):
    s = np.sum(x * x)
    k = 0
    while s < 10.0 and k < 20:
        s = s * 1.5 + np.sum(np.sin(x))
        k += 1
    return s


def scalar_then_matrix_accumulator(W, x):
    total = 0
    for i in range(3):
        total = total + np.outer(x, x) * W[i]
    return np.sum(total * W)


WXS = (RNG.standard_normal((3, 3)) * 0.5, RNG.standard_normal((4, 3)))
CASES = [
    (ratio_unless_zero, (0.7, 1.3)),
    (recurrence_starting_from_an_int, (0.7, 0.2)),
    (horner_with_int_coefficients, (0.8,)),
    (builtins_on_floats, (0.6, 1.1)),
    (builtins_on_floats, (0.1, -1.1)),
    (floor_division_and_remainder, (2.3, 1.7)),
    (integer_power_from_the_loop, (1.3,)),
    (in_place_add_after_a_saved_read, (RNG.standard_normal(4),)),
    (in_place_multiply_of_a_saved_factor, (RNG.standard_normal(4),)),
    (alias_of_a_buffer_written_in_place, (RNG.standard_normal(4),)),
    (buffer_written_each_iteration, (RNG.standard_normal(4),)),
    (accumulator_buffer_in_a_loop, (RNG.standard_normal(4),)),
    (matrix_state_updated_in_place, (RNG.standard_normal((3, 3)) * 0.5, RNG.standard_normal(3))),
    (scalar_state_that_becomes_an_array, WXS),
    (row_state_broadcast_to_a_batch, (RNG.standard_normal((3, 2)), RNG.standard_normal((4, 5, 3)))),
    (state_that_grows, (RNG.standard_normal(4),)),
    (states_stacked_after_the_loop, WXS),
    (lstm_like_tuple_state, WXS),
    (data_dependent_trip_count, (RNG.standard_normal(3) * 0.5,)),
    (scalar_then_matrix_accumulator, (RNG.standard_normal((3, 3)), RNG.standard_normal(3))),
]


@pytest.mark.parametrize("f, args", CASES,
                         ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(CASES)])
def test_every_argument_against_finite_differences(f, args):
    check_every_argument(f, args)


def test_a_branch_on_a_zero_denominator_is_followed():
    # y == 0.0 takes the branch without the division (w.r.t. y it is a step: not checked)
    check_every_argument(ratio_unless_zero, (0.7, 0.0), wrt=[0])
    check_every_argument(ratio_unless_zero, (0.7, np.float64(0.0)), wrt=[0])


# --- one derivative function, several argument kinds ----------------------------------

def shifted_sines(x, b):
    return np.sum(np.sin(x + b) * x)


def projected(x, W):
    return np.sum(np.tanh(x @ W))


def powered(x, k):
    return np.sum(x ** k)


def stepped(x, n):
    s = x
    for _ in range(n):
        s = np.sin(s) + s * 0.5
    return np.sum(s)


KINDS = {
    shifted_sines: [(RNG.standard_normal(3), RNG.standard_normal(3)),
                    (RNG.standard_normal(3), RNG.standard_normal(1)),
                    (RNG.standard_normal(3), 0.4),
                    (0.3, RNG.standard_normal(3)),
                    (RNG.standard_normal((2, 3)), RNG.standard_normal(3)),
                    (0.3, 0.4)],
    projected: [(RNG.standard_normal(3), RNG.standard_normal((3, 2))),
                (RNG.standard_normal((4, 3)), RNG.standard_normal((3, 2))),
                (RNG.standard_normal(3), RNG.standard_normal(3))],
    powered: [(RNG.random(3) + 0.5, 2), (RNG.random(3) + 0.5, 3),
              (RNG.random(3) + 0.5, 0.5), (1.3, 2)],
    stepped: [(RNG.standard_normal(3), 2), (RNG.standard_normal(3), 0),
              (RNG.standard_normal(3), 5), (0.4, 3)],
}


@pytest.mark.parametrize("f", list(KINDS), ids=lambda f: f.__name__)
def test_one_derivative_meets_several_argument_kinds(f):
    derivative = {}
    for args in KINDS[f]:
        wrt = [i for i, a in enumerate(args) if not isinstance(a, int)]
        check_every_argument(f, args, wrt, derivative)


def test_float32_arguments_get_float32_gradients_of_the_right_value():
    x = (RNG.standard_normal(4)).astype(np.float32)
    b = np.float32(0.25)
    gradient = sg.grad(shifted_sines, wrt=(0, 1))(x, b)
    x64, b64 = x.astype(float), float(b)
    expected = (numeric_grad(shifted_sines, [x64, b64], 0),
                numeric_grad(shifted_sines, [x64, b64], 1))
    assert gradient[0].dtype == np.float32
    for got, want in zip(gradient, expected):
        np.testing.assert_allclose(as_float(got), want, rtol=1e-4, atol=1e-5)


# --- a cached unit after what it read changed -----------------------------------------

SCALE = 2.0
ACTIVATION = np.tanh
TABLE = np.array([1.0, 2.0, 3.0])


def reads_globals(x):
    h = x
    for _ in range(2):
        h = ACTIVATION(h * SCALE) + TABLE * h
    return np.sum(h)


def test_a_cached_unit_follows_the_globals_it_read(monkeypatch):
    x = RNG.standard_normal(3)
    derivative = {}
    check_every_argument(reads_globals, (x,), None, derivative)
    monkeypatch.setitem(globals(), "SCALE", 0.5)
    check_every_argument(reads_globals, (x,), None, derivative)
    monkeypatch.setitem(globals(), "ACTIVATION", np.sin)
    check_every_argument(reads_globals, (x,), None, derivative)
    monkeypatch.setitem(globals(), "TABLE", np.array([-1.0]))
    check_every_argument(reads_globals, (x,), None, derivative)
    monkeypatch.setitem(globals(), "SCALE", 3)
    check_every_argument(reads_globals, (x,), None, derivative)
