"""``zip``/``enumerate``/``reversed`` over any expressions, in loops and as values, in
every mode against finite differences (they gave zeros when an argument of ``zip`` after
the first was not a plain name, attribute or subscript, and as values)."""

import numpy as np
import pytest

import srcgrad as sg
from tests.soundness.oracle_modes import X, check_modes


def zip_with_an_expression(x):
    s = 0.0
    for a, b in zip(x, x * 2.0):
        s = s + a * b
    return s


def zip_of_list_literals(x):
    s = 0.0
    for a, b in zip([x[0], x[1]], [x[1] ** 2, x[2]]):
        s = s + a * b
    return s


def zip_strict(x):
    s = 0.0
    for a, b in zip(x, np.sin(x), strict=True):
        s = s + a * b
    return s


def zip_three_of_different_lengths(x):
    s = 0.0
    for a, b, c in zip(x, [x[2], x[0]], x[::-1] * x):   # stops after the shortest
        s = s + a * b + c
    return s


def zip_first_argument_an_expression(x):
    s = 0.0
    for a, b in zip(x * x, x):
        s = s + np.sin(a) * b
    return s


def dict_of_zip(x):
    names = ["a", "b", "c"]
    d = dict(zip(names, x))
    return d["a"] * d["c"] + d["b"]


def list_of_zip(x):
    pairs = list(zip(x, x * 3.0))
    return pairs[1][0] * pairs[2][1]


def list_of_enumerate(x):
    pairs = list(enumerate(x))
    return pairs[1][1] * pairs[2][1] + pairs[2][0]


def enumerate_with_start_as_value(x):
    total = 0.0
    for i, v in list(enumerate(x * 2.0, 1)):
        total = total + i * v
    return total


def enumerate_over_an_expression(x):
    total = 0.0
    for i, v in enumerate(np.exp(x)):
        total = total + (i + 1) * v
    return total


def reversed_as_value(x):
    backwards = list(reversed(x))
    return backwards[0] * x[0]


def zip_in_a_comprehension(x):
    return sum([a * b for a, b in zip(x, x[::-1] + 1.0)])


CASES = [zip_with_an_expression, zip_of_list_literals, zip_strict,
         zip_three_of_different_lengths, zip_first_argument_an_expression, dict_of_zip,
         list_of_zip, list_of_enumerate, enumerate_with_start_as_value,
         enumerate_over_an_expression, reversed_as_value, zip_in_a_comprehension]


@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_iteration_in_every_mode(f):
    assert np.any(check_modes(f) != 0.0)


def test_zip_strict_mismatch_raises_like_zip():
    def f(x):
        s = 0.0
        for a, b in zip(x, x[:2], strict=True):
            s = s + a * b
        return s

    with pytest.raises(ValueError, match="zip"):
        f(X)
    with pytest.raises(ValueError, match="zip"):
        sg.grad(f)(X)


def test_zip_over_a_dict_is_refused():
    def f(x, table):
        s = 0.0
        for a, b in zip(x, table):   # a dict indexed by position would give other items
            s = s + a * b
        return s

    with pytest.raises(sg.TransformError, match="zip.*dict"):
        sg.grad(f)(X, {0: 1.0, 1: 2.0, 2: 3.0})
