"""A list comprehension over an array argument, given to NumPy (sum, np.array, an
elementwise function), in both modes, against central finite differences. With a list
operand the elementwise rows used to repeat (``2 * x``) or concatenate (``x_dot + y_dot``)
the list: wrong tangents, or a TypeError."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
from tests.forward import sequence_programs as p
from tests.forward.helpers import close, directional_difference

FUNCTIONS = [p.sum_of_squares, p.array_of_squares, p.square_of_a_comprehension,
             p.pick_from_a_sum_of_lists, p.pick_from_a_scaled_list, p.negated_list,
             p.divided_list, p.clipped_list, p.power_of_a_tuple, p.product_of_two_lists,
             p.list_pop_and_stack]
X = np.array([0.3, -1.2, 2.0])


@pytest.mark.parametrize("f", FUNCTIONS)
def test_reverse_mode(f):
    assert close(sg.grad(f)(X), numeric_grad(f, [X], 0))


@pytest.mark.parametrize("f", FUNCTIONS)
@pytest.mark.parametrize("direction", [np.array([1.0, 0.0, 0.0]), np.array([0.2, -0.5, 1.0])])
def test_forward_mode(f, direction):
    assert close(sg.jvp(f)(X, direction)[1], directional_difference(f, [X], 0, direction))


def test_rows_of_a_matrix_in_both_modes():
    m = np.arange(6.0).reshape(2, 3) - 2.0
    direction = np.ones_like(m)
    assert close(sg.grad(p.rows_of_a_matrix)(m), numeric_grad(p.rows_of_a_matrix, [m], 0))
    assert close(sg.jvp(p.rows_of_a_matrix)(m, direction)[1],
                 directional_difference(p.rows_of_a_matrix, [m], 0, direction))


def test_a_list_is_converted_once_written_out():
    source = sg.source(sg.jvp(p.pick_from_a_scaled_list))
    assert "_asarray = _sg.asarray(items)" in source
    assert "_asarray_dot = _sg.cast_tangent(items_dot, None, None)" in source
    assert "np.multiply(_asarray, 3)" in source
