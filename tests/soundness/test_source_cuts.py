"""Functions whose block an indentation cut could end early: a comment at column 0 in
the body, a docstring or string with lines at column 0, a backslash continuation and a
header closed at column 0. srcgrad must differentiate the whole function (the lines
before such a line either parse as the whole def or are read again by tokenizing), so
each gradient is checked against central finite differences on both sides of a branch
whose second half follows the line."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad


def comment_at_column_zero(x):
    y = x * 2.0
    if x > 0.0:
        return y * x
# the negative side
    return y * x * x


def docstring_with_lines_at_column_zero(x):
    """Doc
x
    """
    if x > 0.0:
        return np.sin(x)
    return x ** 3


def string_with_a_hash_line_at_column_zero(x):
    label = """
# not a comment
"""
    if x > 0.0 and label:
        return x * 4.0
    return x * x * 5.0


def backslash_continuation_at_column_zero(x):
    if x > 0.0:
        return x * 2.0
    y = x * 3.0 + \
x * x
    return y


def header_closed_at_column_zero(
    x,
):
    if x > 0.0:
        return x * 6.0
    return np.cos(x)


CASES = [comment_at_column_zero, docstring_with_lines_at_column_zero,
         string_with_a_hash_line_at_column_zero, backslash_continuation_at_column_zero,
         header_closed_at_column_zero]


@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [0.7, -0.8])
def test_the_whole_function_is_differentiated(f, x):
    expected = numeric_grad(f, [x], 0)
    np.testing.assert_allclose(sg.grad(f)(x), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sg.jvp(f)(x, 1.0)[1], expected, rtol=1e-5, atol=1e-6)
