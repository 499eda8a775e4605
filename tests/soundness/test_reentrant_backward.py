"""Every derivative function runs any number of times, on any number of threads, with
the same result, also when the function writes array items in place (the backward sweep
restores overwritten items: into its own copies, never into the saved forward state).

Each program below writes in place (items of a local array, under a view, in a loop, of
a list, into an argument, after a callee saved the array); each API is called twice in
a row and then from several threads, against central finite differences."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import srcgrad as sg

T = np.array([0.3, -0.4, 0.8])
U = np.array([1.0, 0.5, -1.0])
CLOSE = dict(rtol=1e-6, atol=1e-7)


def rotation(t):
    R = np.eye(3)
    R[1, 1] = np.cos(t[0])
    R[0, 1] = -np.sin(t[0])
    R[1, 0] = np.sin(t[0])
    R[0, 0] = np.cos(t[0])
    return R @ (t * t[1])


def view_read_before_write(t):
    A = np.outer(t, t)
    row = A[0]
    y = row * t
    A[0, 0] = np.sin(t[2])
    A[0, 1] = A[0, 0] * t[1]
    return y + row * t[2] + A @ t


def loop_writes(t):
    a = np.ones(3)
    for i in range(1, 3):
        a[i] = a[i - 1] * np.sin(t[i]) + t[0]
    a[0] = a[2] * t[1]
    return a * t


def list_writes(t):
    items = [t[0] * 2.0, t[1], t[2]]
    items[1] = items[0] * items[2]
    items[0] = np.cos(items[1])
    return np.array([items[0] * t[2], items[1], items[2] * items[0]])


def writes_argument(t, out):
    out[0] = t[0] * out[1]
    out[2] = np.exp(t[2]) * out[0]
    return out * t


def squared(a):
    return a * a


def callee_saved_then_written(t):
    A = t * 2.0
    y = squared(A)
    A[0] = t[1] * t[2]
    return y * A


PROGRAMS = [rotation, view_read_before_write, loop_writes, list_writes,
            callee_saved_then_written]


def call(f, t):
    return f(t, np.array([0.5, 2.0, -1.5])) if f is writes_argument else f(t)


def fd_jacobian(f, t=T, eps=1e-6):
    columns = []
    for i in range(t.size):
        step = np.zeros_like(t)
        step[i] = eps
        columns.append((call(f, t + step) - call(f, t - step)) / (2 * eps))
    return np.stack(columns, axis=-1)


def fd_hvp(f, t=T, v=U, eps=1e-4):
    def gradient(x):
        return U @ fd_jacobian(f, x)
    return (gradient(t + eps * v) - gradient(t - eps * v)) / (2 * eps)


def scalar(f):
    def loss(t):
        return np.sum(call(f, t) * U)
    return loss


def twice_and_on_threads(compute, expected, rtol=1e-6, atol=1e-7):
    """``compute()`` twice in a row, then 64 times on 8 threads: always ``expected``."""
    for _ in range(2):
        np.testing.assert_allclose(compute(), expected, rtol=rtol, atol=atol)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: compute(), range(64)))
    for result in results:
        np.testing.assert_allclose(result, expected, rtol=rtol, atol=atol)


def arguments(f):
    return (T.copy(), np.array([0.5, 2.0, -1.5])) if f is writes_argument else (T.copy(),)


@pytest.mark.parametrize("f", PROGRAMS + [writes_argument], ids=lambda f: f.__name__)
def test_vjp_backward_runs_again(f):
    expected = U @ fd_jacobian(f)
    _, backward = sg.vjp(f)(*arguments(f))
    twice_and_on_threads(lambda: backward(U.copy()), expected)


@pytest.mark.parametrize("api", ["jacrev", "jacobian"])
@pytest.mark.parametrize("f", PROGRAMS + [writes_argument], ids=lambda f: f.__name__)
def test_reverse_jacobians(f, api):
    jac = getattr(sg, api)(f)
    twice_and_on_threads(lambda: jac(*arguments(f)), fd_jacobian(f), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_value_and_grad_and_hvp(f):
    loss = scalar(f)
    expected = U @ fd_jacobian(f)
    value_and_grad = sg.value_and_grad(loss)
    twice_and_on_threads(lambda: value_and_grad(T.copy())[1], expected)
    hvp = sg.hvp(loss)
    twice_and_on_threads(lambda: hvp(T.copy(), U.copy()), fd_hvp(f), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_persistent_tape_gradient_twice(f):
    expected = U @ fd_jacobian(f)
    compiled = sg.differentiable(f)
    variable = sg.Variable(T.copy())
    with sg.GradientTape(persistent=True) as tape:
        y = compiled(variable)
    twice_and_on_threads(
        lambda: np.asarray(tape.gradient(y, variable, output_gradients=U.copy())), expected)


def test_residuals_unchanged_by_backward():
    """The saved forward state is what the forward sweep left: the backward of a program
    whose array is restored item by item leaves the residual arrays as they were."""
    value, backward = sg.vjp(rotation)(T.copy())
    residual_arrays = [r.copy() for r in _arrays(backward)]
    backward(U.copy())
    for before, after in zip(residual_arrays, _arrays(backward)):
        np.testing.assert_array_equal(before, after)
    np.testing.assert_allclose(value, rotation(T.copy()), **CLOSE)


def _arrays(backward):
    found, stack = [], [backward.recipe.args]
    while stack:
        item = stack.pop()
        if isinstance(item, np.ndarray):
            found.append(item)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    assert found, "the residuals hold the rotation matrix"
    return found
