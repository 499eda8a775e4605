"""Scalar programs whose gradient on Python floats (or float64s) must equal the one the
array path computes on 0-d arrays, and central finite differences: what a sweep
specialized for scalars may get wrong where Python floats and NumPy scalars differ (a
division or a power at a pole or overflowing, a float32 or complex value in the sweep,
an int argument, NumPy asked to raise on floating-point errors)."""

import math
import warnings

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

STEP = np.float32(0.25)


def recurrence(w, c):
    h = 0.5
    for _ in range(5):
        h = np.tanh(h * w + c) + 0.1 * np.sin(h)
    return h


def quotients(x, y):
    s = 0.0
    for k in range(3):
        s = s + x / (y + k) - y / (x * x + 1.0)
    return s


def powers(x, y):
    s = x ** 3 + x ** y + np.power(y, 2.5) + np.sqrt(x * y)
    return s / y


def with_a_float32_constant(x, y):
    h = x
    for _ in range(3):
        h = h * STEP + np.sin(y * h)
    return h * 1.0


def through_complex(x, y):
    z = (x + 1j * y) ** 2
    return np.real(z * np.conj(z)) + np.imag(z)


def math_calls(x, y):
    return math.exp(x) * math.log(y) + math.sqrt(x * y) + abs(x - y) + max(x, y)


PROGRAMS = [recurrence, quotients, powers, with_a_float32_constant, through_complex,
            math_calls]
POINTS = [(0.7, 0.3), (1.3, 2.1), (0.4, 1.7)]


def as_0d(args):
    return [np.array(a) for a in args]


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("point", POINTS)
def test_python_floats_float64s_and_0d_arrays_agree_with_finite_differences(f, point):
    # (a float32 constant rounds a Python float's product to float32, not a float64's:
    # a coarser stencil and tolerance)
    eps, rtol, same = (1e-3, 2e-3, 1e-6) if f is with_a_float32_constant else (1e-6, 1e-5, 1e-12)
    expected = [numeric_grad(f, list(point), i, eps=eps) for i in range(2)]
    floats = sg.grad(f, wrt=(0, 1))(*point)
    float64s = sg.grad(f, wrt=(0, 1))(*map(np.float64, point))
    for got in (floats, float64s):
        np.testing.assert_allclose([float(g) for g in got], expected, rtol=rtol, atol=1e-7)
    if f is not math_calls:   # (math functions take no arrays)
        arrays = sg.grad(f, wrt=(0, 1))(*as_0d(point))
        np.testing.assert_allclose([float(g) for g in float64s], [float(g) for g in arrays],
                                   rtol=same, atol=0)


def at_a_pole(x, y):
    s = 0.0
    for _ in range(2):
        s = s + np.sqrt(x) * y + np.log(y) / 2.0
    return s


def test_a_pole_gives_numpy_inf_on_floats_as_on_arrays():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        floats = sg.grad(at_a_pole, wrt=(0, 1))(0.0, 0.0)
        arrays = sg.grad(at_a_pole, wrt=(0, 1))(np.array(0.0), np.array(0.0))
    for got, want in zip(floats, arrays):
        np.testing.assert_equal(float(got), float(want))


def test_numpy_asked_to_raise_still_raises_on_floats():
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError):
            sg.grad(at_a_pole, wrt=(0, 1))(0.0, 1.0)


def test_an_int_argument_gets_a_float_gradient():
    gradient = sg.grad(quotients, wrt=(0, 1))(2, 3)
    expected = [numeric_grad(quotients, [2.0, 3.0], i) for i in range(2)]
    np.testing.assert_allclose([float(g) for g in gradient], expected, rtol=1e-6)
    assert all(isinstance(g, (float, np.floating)) for g in gradient)
