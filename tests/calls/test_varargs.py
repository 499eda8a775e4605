"""``def f(*xs)`` differentiated w.r.t. its ``*args`` (by name: a tuple of gradients),
and calls to user functions taking ``*args`` / ``**kwargs`` in forward mode."""

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.helpers import check_both_modes
from tests.conftest import numeric_grad


def weighted(*xs):
    return xs[0] * np.sin(xs[1]) + np.sum(xs[2] ** 2)


def test_grad_wrt_the_varargs_tuple():
    args = (2.0, 0.5, np.array([0.1, -0.4]))
    grads = sg.grad(weighted, wrt="xs")(*args)
    assert len(grads) == 3
    for i, grad in enumerate(grads):
        assert np.allclose(grad, numeric_grad(weighted, args, i))


def test_jvp_wrt_the_varargs_tuple():
    args = (2.0, 0.5, np.array([0.1, -0.4]))
    tangent = (0.3, -1.0, np.array([1.0, 2.0]))
    value, derivative = sg.jvp(weighted, wrt="xs")(*args, tangent)
    eps = 1e-6
    plus = [a + eps * t for a, t in zip(args, tangent)]
    minus = [a - eps * t for a, t in zip(args, tangent)]
    assert np.isclose(value, weighted(*args))
    assert np.isclose(derivative, (weighted(*plus) - weighted(*minus)) / (2 * eps))


def test_an_index_past_the_named_parameters_names_the_varargs():
    with pytest.raises(ValueError, match=r"out of range.*wrt='xs'"):
        sg.grad(weighted, wrt=0)(1.0, 2.0, 3.0)


def scaled_sum(scale, *terms, **options):
    total = 0.0
    for t in terms:
        total = total + np.sum(t * options["weight"])
    return scale * total


def calls_a_varargs_helper(x):
    return scaled_sum(2.0, x, np.sin(x), weight=x)


def calls_with_keyword_options(x):
    return scaled_sum(x[0], 3.0 * x, weight=1.5)


@pytest.mark.parametrize("f", [calls_a_varargs_helper, calls_with_keyword_options])
def test_calls_to_varargs_helpers_in_both_modes(f):
    check_both_modes(f, (np.array([0.5, -0.2]),))


def test_jvp_of_a_function_with_keyword_parameters():
    def f(x, *rest, k=2.0, **kw):
        return x * k * kw.get("s", 3.0) + sum(rest)

    value, derivative = sg.jvp(f)(1.5, 4.0, 1.0, s=0.5)
    assert np.isclose(value, 1.5 * 2.0 * 0.5 + 4.0) and np.isclose(derivative, 1.0)
