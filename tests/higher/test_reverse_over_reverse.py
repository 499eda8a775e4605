"""grad(grad(f)) and nestings of grad and jvp, against closed forms and central finite
differences of the first gradient (never srcgrad against itself)."""

import numpy as np
import pytest

import srcgrad as sg
from tests.forward.helpers import close, directional_difference
from tests.higher import programs as p


def difference_of_gradient(f, x, eps=1e-6):
    gradient = sg.grad(f)
    return (gradient(x + eps) - gradient(x - eps)) / (2 * eps)


def test_cube_derivatives_at_three():
    assert sg.grad(p.cube)(3.0) == 27.0
    assert sg.grad(sg.grad(p.cube))(3.0) == 18.0
    assert sg.grad(sg.grad(sg.grad(p.cube)))(3.0) == 6.0


@pytest.mark.parametrize("x", [0.7, -1.3])
def test_for_loop_against_closed_form(x):
    assert close(sg.grad(p.poly_loop)(x), 4 * x ** 3 + 2 * x + 1)
    assert close(sg.grad(sg.grad(p.poly_loop))(x), 12 * x ** 2 + 2)
    assert close(sg.grad(sg.grad(sg.grad(p.poly_loop)))(x), 24 * x)


@pytest.mark.parametrize("f, x", [
    (p.sine_while, 0.4), (p.branches, 1.5), (p.branches, 0.3), (p.early_return, -0.8),
    (p.early_return, 0.9), (p.subscripts, 0.6), (p.loop_subscripts, 0.8), (p.calls, 0.5),
    (p.calls_in_loop, 0.7), (p.list_stack, 0.9), (p.list_pop_front, 1.1),
    (p.list_slot_overwritten, 0.7),
])
def test_second_derivative_matches_differences_of_the_gradient(f, x):
    assert close(sg.grad(sg.grad(f))(x), difference_of_gradient(f, x), rtol=1e-5, atol=1e-6)


def test_branches_against_closed_form():
    assert close(sg.grad(sg.grad(p.branches))(1.5), 6 * 1.5)
    assert close(sg.grad(sg.grad(p.branches))(0.3), np.exp(0.3) * (0.3 + 2))


def test_list_programs_against_closed_form():
    x = 0.9
    assert close(sg.grad(p.list_stack)(x), 2 * (1 + 2 * x + 3 * x ** 2))
    assert close(sg.grad(sg.grad(p.list_stack))(x), 2 * (2 + 6 * x))
    assert close(sg.grad(p.list_pop_front)(x), 12 * x ** 3)
    assert close(sg.grad(sg.grad(p.list_pop_front))(x), 36 * x ** 2)


def test_third_derivative_through_a_while_loop():
    second = sg.grad(sg.grad(p.sine_while))
    x, eps = 0.4, 1e-5
    numeric = (second(x + eps) - second(x - eps)) / (2 * eps)
    assert close(sg.grad(second)(x), numeric, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("x", [0.3, -1.1])
def test_second_derivative_is_the_one_by_one_hessian(x):
    assert close(sg.grad(sg.grad(p.sine_while))(x), sg.hessian(p.sine_while)(x))


def total_gradient(x):
    return np.sum(SEPARABLE_GRAD(x))


SEPARABLE_GRAD = sg.grad(p.separable)


def test_hessian_diagonal_of_a_separable_function():
    x = np.array([0.3, -0.7, 1.2])
    diagonal = sg.grad(total_gradient)(x)
    assert close(diagonal, np.diag(sg.hessian(p.separable)(x)))
    closed = 2 * np.sin(x) + 4 * x * np.cos(x) - x ** 2 * np.sin(x)
    assert close(diagonal, closed)


RNN_GRAD_W = sg.grad(p.vector_rnn, wrt=1)
RNN_GRAD_X = sg.grad(p.vector_rnn, wrt=0)
DIRECTION = np.array([0.4, -1.0, 0.25])


def rnn_w_slope(x, w):
    return RNN_GRAD_W(x, w)


def rnn_x_projection(x, w):
    return np.sum(RNN_GRAD_X(x, w) * DIRECTION)


def test_gradients_of_a_loop_over_arrays():
    x, w = np.array([0.2, -0.5, 0.8]), 0.9
    assert close(sg.grad(rnn_w_slope, wrt=1)(x, w),
                 directional_difference(RNN_GRAD_W, (x, w), 1, 1.0))
    assert close(sg.grad(rnn_w_slope, wrt=0)(x, w),
                 [directional_difference(RNN_GRAD_W, (x, w), 0, e) for e in np.eye(3)])
    assert close(sg.grad(rnn_x_projection)(x, w),
                 [directional_difference(rnn_x_projection, (x, w), 0, e) for e in np.eye(3)])


def test_jvp_of_grad():
    value, second = sg.jvp(sg.grad(p.poly_loop))(0.7, 1.0)
    assert close(value, 4 * 0.7 ** 3 + 2 * 0.7 + 1)
    assert close(second, 12 * 0.7 ** 2 + 2)
    _, second = sg.jvp(sg.grad(p.list_stack))(0.9, 1.0)
    assert close(second, 2 * (2 + 6 * 0.9))


def test_grad_of_a_jvp():
    assert close(sg.grad(p.cube_slope)(3.0), 18.0)
    assert close(sg.grad(sg.grad(p.cube_slope))(3.0), 6.0)


def test_grad_of_grad_of_jvp_of_grad():
    third = sg.jvp(sg.grad(sg.grad(p.poly_loop)))(0.7, 1.0)[1]
    assert close(third, 24 * 0.7)


def test_first_order_list_reads_stay_aligned_with_later_growth():
    assert sg.grad(p.read_then_grow)(1.5, 2.0) == 2.0


def test_an_insert_is_differentiated():
    assert sg.grad(p.insert_in_place)(0.5) == 1.0


@pytest.mark.parametrize("f", [p.copy_into])
def test_an_in_place_call_without_a_rule_is_an_error(f):
    with pytest.raises(sg.TransformError, match="in place") as info:
        sg.grad(f)(0.5)
    assert "programs.py" in str(info.value)
