"""A value handed to a helper that stores it in place (``push(stack, a)``) and read back
later (``pop(stack)``): forward mode refused it only as the reverse mode does, it must not
treat the value read back as a constant. Oracle: central differences."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import TransformError
from tests.conftest import numeric_grad
from tests.soundness.stack_helpers import pop, push

X = np.array([.3, .7, 1.1])


def through_a_stack(x):
    stack = []
    push(stack, x * x)
    aa = pop(stack)
    return np.sum(aa * x)


def push_here(stack, value):
    stack.append(value)


def through_a_local_helper(x):
    stack = []
    push_here(stack, x * x)
    aa = stack.pop()
    return np.sum(aa * x)


@pytest.mark.parametrize("f", [through_a_stack, through_a_local_helper])
def test_forward_mode_is_right_or_refuses(f):
    v = np.array([0.5, -1.0, 2.0])
    expected = float(np.sum(numeric_grad(f, [X], 0) * v))
    try:
        _, derivative = sg.jvp(f)(X, v)
    except TransformError as error:
        assert "push" in str(error)
        with pytest.raises(TransformError):
            sg.grad(f)(X)
        return
    assert derivative == pytest.approx(expected, rel=1e-6)


def test_both_modes_refuse_the_helper_of_another_module():
    for make in (sg.grad, lambda f: sg.jvp(f)):
        with pytest.raises(TransformError, match="called for its effect|what it keeps of it"):
            make(through_a_stack)
