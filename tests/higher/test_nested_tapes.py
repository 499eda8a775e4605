"""A GradientTape opened inside a function that is itself differentiated (sg.grad,
sg.jvp, value_and_grad), against closed forms and central finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
from tests.forward.helpers import close
from tests.higher import nested_tape_programs as p


def outer_derivatives(f, x):
    return [sg.grad(f)(x), sg.jvp(f)(x, 1.0)[1], sg.value_and_grad(f)(x)[1]]


@pytest.mark.parametrize("x", [-2.0, 0.0, 0.7])
def test_no_perturbation_confusion(x):
    for derivative in outer_derivatives(p.tape_confusion, x):
        assert derivative == 1.0
    assert close(numeric_grad(lambda v: float(p.tape_confusion(v)), [x], 0), 1.0)


@pytest.mark.parametrize("f, closed_form", [
    (p.tape_slope, lambda x: 4 * x),
    (p.persistent_tape, lambda x: 6 + 2 * x),
    (p.non_scalar_target, lambda x: 6 * x),
])
@pytest.mark.parametrize("x", [0.6, -1.1])
def test_against_closed_form(f, closed_form, x):
    for derivative in outer_derivatives(f, x):
        assert close(derivative, closed_form(x))
    if f is p.non_scalar_target:   # watches an sg.constant: runs eagerly too
        assert close(numeric_grad(lambda v: float(f(v)), [x], 0), closed_form(x), rtol=1e-6)


def test_an_array_objective_against_differences():
    """The function runs eagerly too (its tape watches an sg.constant): the oracle is
    finite differences of that run."""
    w = np.array([0.5, -1.2, 0.8])
    numeric = numeric_grad(lambda v: float(p.tape_of_an_array(v)), [w], 0)
    assert close(sg.grad(p.tape_of_an_array)(w), numeric, rtol=1e-6)
    v = np.array([0.3, 1.0, -0.5])
    assert close(sg.jvp(p.tape_of_an_array)(w, v)[1], numeric @ v, rtol=1e-6)


@pytest.mark.parametrize("f, message, line", [
    (p.watch_after_work, "`tape.watch` after other statements", "tape.watch(x)"),
    (p.unwatched_source, "`y` is not watched by the tape", "return tape.gradient(z, y)"),
    (p.second_gradient_of_a_tape, "A non-persistent GradientTape can only be used to "
                                  "compute one set of gradients",
     "return tape.gradient(z, x) + tape.gradient(z, x)"),
    (p.tape_in_a_loop, "must be a statement of the function's own body",
     "with sg.GradientTape() as tape:"),
    (p.tape_jacobian, "`tape.jacobian` of a GradientTape", "return tape.jacobian(z, x)"),
])
def test_refusals_name_the_construct_and_the_line(f, message, line):
    with pytest.raises(sg.TransformError) as error:
        sg.grad(f)(0.5)
    assert message in str(error.value)
    assert "nested_tape_programs.py" in str(error.value) and line in str(error.value)
