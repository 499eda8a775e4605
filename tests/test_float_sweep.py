"""The scalar variant's backward sweep on Python floats (``optimize.float_sweep``).

Oracles: central finite differences, and the sweep on NumPy float64s, which the
generated code runs instead whenever NumPy's error handling is not its default (an
``np.errstate`` with the default settings is enough): the float sweep must give exactly
its numbers and types, infs, nans and exceptions included.
"""

import math
import warnings

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.analysis.number_types import FLOAT, FLOAT64, INT, NONE, OTHER, name_types
from srcgrad.syntax import parse, to_gast
from tests.conftest import numeric_grad


def poly(x, y, z):
    a = x * y + z
    b = a * a - 3.0 * x
    c = b / (1.0 + y * y)
    d = np.sin(c) + np.cos(a)
    e = d * x - z * z
    f = np.exp(-0.5 * e * e)
    g = f * a + b * c
    h = np.tanh(g) * y
    k = h + 2.0 * x * z - 0.25 * a * b
    m = k * k / (1.0 + f)
    return m + np.log(1.0 + d * d) - e


def recurrence(w, c, steps):
    h = 0.5
    for _ in range(steps):
        h = np.tanh(h * w + c) + 0.1 * np.sin(h)
    return h


def quotient(x, y):
    return np.sin(x) / y


def root(x):
    return np.sqrt(x) + np.log(x)


def powers(x, y):
    s = np.sin(x)
    return s ** 0.5 + s ** 2.5 * y + np.exp(x) ** 3


def branches(x, y):
    s = 0.0
    for i in range(3):
        if x > 0:
            s = s + np.exp(x * i) * y
        else:
            s = s - np.log(y) ** 3
    return s


def unused(x, y):
    return np.sin(x) * 2.0


def plain_python(x, y):
    return x * y + x / y


def _scalar_source(grad, args):
    grad(*args)   # (compiles the variant)
    namespace = grad.unit.namespace
    name = next(k for k in namespace if k.endswith("_grad_scalars"))
    return sg.source(namespace[name])


def _numpy_sweep(function, *args):
    """The gradient by NumPy's sweep: the float sweep needs the default error handling."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(**np.geterr()):
            return function(*args)


def _float_sweep(function, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args)


def _same(got, expected):
    got, expected = np.atleast_1d(got), np.atleast_1d(expected)
    assert [type(v) for v in got] == [type(v) for v in expected]
    for a, b in zip(got, expected):
        assert (a == b) or (np.isnan(a) and np.isnan(b)), (got, expected)
        assert math.copysign(1, a) == math.copysign(1, b)


@pytest.mark.parametrize("function, args", [
    (poly, (0.3, -0.8, 1.1)), (poly, (1.7, 0.2, -0.4)), (recurrence, (0.7, 0.2, 25)),
    (quotient, (0.4, 1.5)), (root, (2.5,)), (powers, (0.6, 1.3)), (branches, (0.5, 0.3)),
    (branches, (-0.5, 0.3))])
def test_the_gradient_matches_finite_differences_and_numpys_sweep(function, args):
    wrt = tuple(i for i, a in enumerate(args) if isinstance(a, float))
    grad = sg.grad(function, wrt)
    assert "_sg.floats_apply" in _scalar_source(grad, args)   # a sweep on floats
    got = _float_sweep(grad, *args)
    _same(got, _numpy_sweep(grad, *args))
    for position, index in enumerate(wrt):
        expected = numeric_grad(function, args, index)
        assert np.isclose(got[position], expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("function, args", [
    (quotient, (0.4, 0.0)), (quotient, (0.0, 0.0)), (quotient, (0.4, -0.0)),
    (root, (0.0,)), (root, (-1.0,)), (powers, (-0.6, 1.3)), (powers, (0.0, -1.0)),
    (powers, (300.0, 1.0)), (recurrence, (np.inf, 0.2, 3)),
    (recurrence, (0.7, np.nan, 3))])
def test_infs_nans_and_zero_divisors_give_numpys_numbers(function, args):
    """Where Python floats raise (ZeroDivisionError, OverflowError, a complex power),
    NumPy's sweep gives inf or nan: so does the float sweep."""
    grad = sg.grad(function, tuple(range(len(args)))[:2] if function is not recurrence
                   else (0, 1))
    _same(_float_sweep(grad, *args), _numpy_sweep(grad, *args))


def test_a_division_by_zero_warns_as_numpy_does():
    grad = sg.grad(quotient, (0, 1))
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        assert grad(0.4, 0.0)[1] == -np.inf


def test_the_returned_types_stay_those_of_numpys_sweep():
    """float64 gradients; the untouched zero of a Python float (a loop that did not
    run, an argument the result does not depend on) stays a Python float."""
    _same(sg.grad(recurrence, (0, 1))(0.7, 0.2, 0), (0.0, 0.0))
    _same(sg.grad(recurrence, (0, 1))(0.7, np.float64(0.2), 0), (0.0, np.float64(0.0)))
    _same(sg.grad(recurrence, (0, 1))(0.7, 0.2, 3),
          _numpy_sweep(sg.grad(recurrence, (0, 1)), 0.7, 0.2, 3))
    got = sg.grad(unused, (0, 1))(1.0, 2.0)
    assert type(got[0]) is np.float64 and type(got[1]) is float and got[1] == 0.0


def test_value_and_grad_keeps_the_value():
    value, grads = sg.value_and_grad(recurrence, (0, 1))(0.7, 0.2, 10)
    assert type(value) is np.float64 and value == recurrence(0.7, 0.2, 10)
    _same(grads, _numpy_sweep(sg.grad(recurrence, (0, 1)), 0.7, 0.2, 10))


def test_a_python_float_result_keeps_the_python_sweep():
    """No float64 result: NumPy's sweep is not what ran, nothing changes (its division
    by zero raises as Python's does)."""
    grad = sg.grad(plain_python, (0, 1))
    assert grad(2.0, 4.0) == (0.25 + 4.0, 2.0 - 2.0 / 16.0)
    with pytest.raises(ZeroDivisionError):
        grad(2.0, 0.0)


def test_errstate_raise_keeps_numpys_exceptions():
    grad = sg.grad(quotient, (0, 1))
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        grad(0.4, 0.0)


def test_a_division_whose_type_decides_stays_as_written():
    """``-c / _add`` reads values whose type (float or float64) is the parameters':
    not converted, it divides as the NumPy sweep did."""
    source = _scalar_source(sg.grad(poly, (0, 1, 2)), (0.3, -0.8, 1.1))
    assert "(-c / _add)" in source
    assert "_sg.divide(" in source


def test_number_types_of_a_loop():
    node = to_gast(parse(
        "def f(x, y):\n"
        "    a = x * y\n"
        "    s = np.sin(a)\n"
        "    h = 0.5\n"
        "    t = None\n"
        "    for i in range(3):\n"
        "        h = h * s\n"
        "        t = h\n"
        "    q = x ** 0.5\n"
        "    n = len(x)\n")).body[0]
    types = name_types(node.body, ["x", "y"])
    assert types["a"] == {INT, FLOAT, FLOAT64}
    assert types["s"] == {FLOAT64}
    assert types["h"] == {FLOAT, FLOAT64}
    assert types["t"] == {NONE, FLOAT, FLOAT64}
    assert types["i"] == {INT}
    assert types["q"] == {FLOAT, FLOAT64, OTHER}   # (-8.0) ** 0.5 is complex
    assert types["n"] == {OTHER}
