"""A list an operation read and that the function then changes in place (``append``,
``pop``): the backward sweep undoes each change on the list itself as it goes back, so the
adjoint of ``np.stack`` and the list's cotangent see the list as the operation read it.
Checked against finite differences, and the form that builds a new list per step too."""

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.oracle import check_modes
from tests.conftest import numeric_grad

X = np.array([0.3, -0.7, 1.2])


def grows_after_stack(x):
    seen = []
    total = 0.0
    for v in x:
        seen.append(v)
        total = total + np.sum(np.stack(seen)) * v
    return total


def pops_after_stack(x):
    seen = [x[0], x[1], x[2]]
    s = np.sum(np.stack(seen) ** 2)
    seen.pop()
    return s + np.sum(np.stack(seen))


def grows_after_concatenate_of_stack(x):
    seen = [x[0] * 1.0]
    s = 0.0
    for k in range(1, 3):
        s = s + np.sum(np.concatenate([np.stack(seen), x[:1]]) ** 2)
        seen.append(x[k] * 2.0)
    return s


@pytest.mark.parametrize("f", [grows_after_stack, pops_after_stack,
                               grows_after_concatenate_of_stack])
def test_a_list_changed_after_it_was_read_is_differentiated(f):
    check_modes(f, X)


def new_list_per_step(x):
    seen = []
    total = 0.0
    for v in x:
        seen = seen + [v]
        total = total + np.sum(np.stack(seen)) * v
    return total


def grows_only_after_the_last_read(x):
    hs = []
    h = x[0]
    for v in x:
        h = np.tanh(h * v)
        hs.append(h)
    return np.sum(np.stack(hs) ** 2)


@pytest.mark.parametrize("f", [new_list_per_step, grows_only_after_the_last_read])
def test_the_forms_that_build_lists_are_exact(f):
    assert np.allclose(sg.grad(f)(X), numeric_grad(f, (X,), 0), rtol=1e-6, atol=1e-8)
