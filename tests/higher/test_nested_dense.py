"""sg.vjp, sg.jacobian / jacfwd / jacrev, sg.hessian and sg.elementwise_grad called
inside a function that is itself differentiated, in the outer reverse and forward
modes, against closed forms and central finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
from tests.forward.helpers import close
from tests.higher import nested_dense_programs as p


def outer_derivatives(f, x):
    """d f / dx by the outer reverse mode, the outer forward mode and value_and_grad."""
    return [sg.grad(f)(x), sg.jvp(f)(x, 1.0)[1], sg.value_and_grad(f)(x)[1]]


@pytest.mark.parametrize("f", [p.jacobian_confusion, p.jacrev_confusion, p.vjp_confusion,
                               p.hessian_confusion, p.elementwise_confusion])
@pytest.mark.parametrize("x", [-2.0, 0.0, 0.7])
def test_no_perturbation_confusion(f, x):
    for derivative in outer_derivatives(f, x):
        assert close(derivative, 1.0)
    assert close(numeric_grad(f, [x], 0), 1.0)


@pytest.mark.parametrize("f, closed_form", [
    (p.trace_of_jacobian, lambda x: 24 * x),
    (p.trace_of_jacfwd, lambda x: 24 * x),
    (p.trace_of_jacrev, lambda x: 24 * x),
    (p.trace_of_global_jacobian, lambda x: 24 * x),
    (p.sum_of_hessian, lambda x: 36 * x),
    (p.sum_of_elementwise_grad,
     lambda x: np.cos(x) + np.cos(2 * x) - x * np.sin(x) - 2 * x * np.sin(2 * x)),
    (p.pullback_and_value,
     lambda x: 2 * np.cos(x) - 2 * x * np.sin(x) + np.sin(x) + x * np.cos(x)),
    (p.pullback_of_global,
     lambda a: 0.375 * np.cos(a / 2) - 0.1875 * a * np.sin(a / 2)),
])
@pytest.mark.parametrize("x", [0.6, -1.1])
def test_against_closed_form(f, closed_form, x):
    for derivative in outer_derivatives(f, x):
        assert close(derivative, closed_form(x))
    assert close(numeric_grad(f, [x], 0), closed_form(x), rtol=1e-6)


@pytest.mark.parametrize("f", [p.pullback_in_a_loop, p.gauss_newton_curvature,
                               p.newton_step_by_hessian])
def test_array_objectives_against_differences(f):
    w = np.array([0.8, -0.4, 1.3])[: 2 if f is p.newton_step_by_hessian else 3]
    numeric = numeric_grad(f, [w], 0)
    assert close(sg.grad(f)(w), numeric, rtol=1e-6)
    v = np.linspace(0.5, -0.7, w.size)
    assert close(sg.jvp(f)(w, v)[1], numeric @ v, rtol=1e-6)


@pytest.mark.parametrize("f", [p.trace_of_jacobian, p.trace_of_jacrev, p.sum_of_hessian])
def test_hvp_over_a_function_that_takes_a_dense_derivative(f):
    """Forward over reverse over the inner derivative: 24 and 36 (third order)."""
    assert close(sg.hvp(f)(0.4, 1.0), 36.0 if f is p.sum_of_hessian else 24.0)


def test_jacobian_of_a_global_function_outside_differentiated_code_is_unchanged():
    y = np.array([1.0, 2.0])
    assert close(sg.jacobian(p.weighted_square, wrt=1)(0.5, y), np.diag(y))
    assert close(sg.grad(lambda a: np.sum(sg.jacobian(p.weighted_square, wrt=1)(a, y)))(0.5),
                 2 * np.sum(y))


@pytest.mark.parametrize("f, construct, line", [
    (p.pullback_used_as_value, "can only be called", "return [pullback]"),
    (p.vjp_with_aux, "has_aux=True", "value, pullback, aux = sg.vjp("),
    (p.vjp_not_unpacked, "unpacked into two names", "pair = sg.vjp(lambda y: x * y)(1.0)"),
])
def test_refusals_name_the_construct_and_the_line(f, construct, line):
    with pytest.raises(sg.TransformError) as error:
        sg.grad(f)(0.5)
    assert construct in str(error.value)
    assert "nested_dense_programs.py" in str(error.value) and line in str(error.value)


def test_a_jacobian_wrt_two_arguments_is_refused_at_the_call():
    with pytest.raises(sg.TransformError) as error:
        sg.grad(p.jacobian_of_two_arguments)(0.5)
    message = str(error.value)
    assert "sg.jacobian(weighted_square)" in message
    assert "return sg.jacobian(weighted_square, wrt=(0, 1))(x, 2.0)[0]" in message


def test_a_pytree_argument_is_refused_when_it_runs():
    def f(x):
        return np.sum(sg.jacobian(lambda t: t[0] * x)((x, 2.0)))
    with pytest.raises(TypeError, match="sg.jacobian called inside a function being "
                                        "differentiated takes and returns arrays"):
        sg.grad(f)(0.5)


def test_a_dense_derivative_made_again_calls_the_same_generated_function():
    """Made where the function being differentiated runs (a module-level function's
    Jacobian is resolved there), it must not be generated and compiled anew each call."""
    first = sg.jacobian(p.weighted_square, wrt=1).__srcgrad_function__
    assert sg.jacobian(p.weighted_square, wrt=1).__srcgrad_function__ is first
    assert sg.hessian(p.curvature).__srcgrad_function__ is \
        sg.hessian(p.curvature).__srcgrad_function__
