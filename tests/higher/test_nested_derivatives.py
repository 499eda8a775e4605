"""sg.grad / value_and_grad / jvp / hvp called inside a function that is itself
differentiated, in reverse, forward and forward-over-reverse, against closed forms and
central finite differences (never srcgrad against itself)."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
from tests.forward.helpers import close
from tests.higher import nested_programs as p


def outer_derivatives(f, x):
    """d f / dx by the outer reverse mode, the outer forward mode and value_and_grad."""
    return [sg.grad(f)(x), sg.jvp(f)(x, 1.0)[1], sg.value_and_grad(f)(x)[1]]


@pytest.mark.parametrize("f", [p.siskind_pearlmutter, p.siskind_pearlmutter_lambda,
                               p.siskind_pearlmutter_bound,
                               p.siskind_pearlmutter_value_and_grad,
                               p.siskind_pearlmutter_option_at_run_time,
                               p.local_jacobian, p.local_elementwise_grad])
@pytest.mark.parametrize("x", [-2.0, 0.0, 0.7, 5.0])
def test_no_perturbation_confusion(f, x):
    for derivative in outer_derivatives(f, x):
        assert derivative == 1.0
    assert close(numeric_grad(f, [x], 0), 1.0)


@pytest.mark.parametrize("f, closed_form", [
    (p.scaled_square_slope, lambda x: 4 * x),
    (p.second_inside, lambda x: 12 * x),
    (p.third_order, lambda x: 8 * x),
    (p.named_wrt, lambda x: 4 * x + 4 + 8 * x + 4 * x ** 3 + 9 * x ** 2),
    (p.inner_jvp, lambda x: 2 * np.cos(x) - 2 * x * np.sin(x)),
    (p.inner_hvp, lambda x: -2 * np.sin(x) - 2 * x * np.cos(x)),
    (p.make_scaled(1.5), lambda x: 6 * x),
    (p.inner_gradients_function, lambda x: 4 * x),
    (p.inner_value_and_gradients_function, lambda x: 3 * x ** 2 + 4 * x),
])
@pytest.mark.parametrize("x", [0.6, -1.1])
def test_inner_derivative_of_a_closure_against_closed_form(f, closed_form, x):
    for derivative in outer_derivatives(f, x):
        assert close(derivative, closed_form(x))


@pytest.mark.parametrize("f", [p.newton_cube_root, p.helper_shared, p.global_jvp,
                               p.global_hvp])
@pytest.mark.parametrize("x", [0.8, 2.5])
def test_outer_modes_against_differences(f, x):
    numeric = numeric_grad(f, [x], 0)
    for derivative in outer_derivatives(f, x):
        assert close(derivative, numeric, rtol=1e-6)


def test_newton_steps_match_the_steps_written_out():
    for a in (0.5, 2.0, 8.0):
        assert close(p.newton_cube_root(a), p.newton_cube_root_closed(a), rtol=1e-12)
        assert close(sg.grad(p.newton_cube_root)(a),
                     numeric_grad(p.newton_cube_root_closed, [a], 0), rtol=1e-6)


def test_gradient_built_inside_an_array_objective():
    w = np.array([0.5, -1.2, 0.8])
    assert close(sg.grad(p.gradient_penalty)(w), numeric_grad(p.gradient_penalty, [w], 0))
    v = np.array([0.3, 1.0, -0.5])
    assert close(sg.jvp(p.gradient_penalty)(w, v)[1],
                 numeric_grad(p.gradient_penalty, [w], 0) @ v)


@pytest.mark.parametrize("f, x", [(p.gradient_penalty, np.array([0.5, -1.2, 0.8])),
                                  (p.scaled_square_slope, 0.9),
                                  (p.newton_cube_root, 2.0)])
def test_hvp_of_a_function_that_calls_grad(f, x):
    x = np.asarray(x, dtype=float)
    v = np.ones_like(x) if x.ndim else 1.0
    gradient = sg.grad(f)
    numeric = numeric_grad(lambda y: np.sum(np.asarray(gradient(y)) * v), [x], 0)
    assert close(sg.hvp(f)(x, v), numeric, rtol=1e-5)
    if x.ndim == 0:
        assert close(sg.grad(sg.grad(f))(float(x)), numeric, rtol=1e-5)


def test_gradient_tape_over_a_function_that_calls_grad():
    def f(x):
        return sg.grad(lambda y: x * y ** 2)(x)     # 2 x^2
    x = sg.Variable(0.7)
    with sg.GradientTape() as tape:
        y = sg.differentiable(f)(x)
    assert close(tape.gradient(y, x), 4 * 0.7)
    assert close(sg.gradients_function(f)(0.7)[0], 4 * 0.7)


def test_an_option_known_only_at_run_time_leaves_the_call_to_sg_grad():
    source = sg.source(sg.grad(p.siskind_pearlmutter_option_at_run_time))
    # (the guarded sg.grad, read once: the object the entry's guard compared it with)
    assert "if sg.grad is not _assumed_sg_grad" in source
    assert "_assumed_sg_grad(lambda__lifted, check_nan=check, wrt=1)" in source
    assert "_sg.dynamic_forward(_grad, False, x, 1.0)" in source


def test_generated_code_calls_the_inner_derivative_with_the_enclosing_variable():
    source = sg.source(sg.grad(p.siskind_pearlmutter))
    assert "_shift_grad, shift_grad_saved = shift_grad_forward(x, 3.0)" in source
    assert "dx_shift_grad = shift_grad_backward(shift_grad_saved, d_shift_grad)" in source
    assert "dynamic" not in source


@pytest.mark.parametrize("f, construct, line", [
    (p.local_make_vjp, "`sg.make_vjp` of a local function",
     "return tfe.make_vjp(inner)(x)[0]"),
    (p.escaping_derivative, "is used as a value", "return [sg.grad(inner)]"),
    (p.shadowed, "bound again", "return derivative(x)"),
])
def test_refusals_name_the_construct_and_the_line(f, construct, line):
    with pytest.raises(sg.TransformError) as error:
        sg.grad(f)(0.5)
    assert construct in str(error.value)
    assert "nested_programs.py" in str(error.value) and line in str(error.value)


def test_a_transformation_run_in_python_is_refused_at_the_call():
    with pytest.raises(sg.TransformError) as error:
        sg.grad(p.global_jacobian)(0.7)
    message = str(error.value)
    assert "sg.jacobian(curvature)" in message
    assert "nested_programs.py" in message and \
        "return sg.jacobian(curvature, wrt=(0, 1))(0.5, a)[1] * a" in message
