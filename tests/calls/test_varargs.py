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


def test_an_index_past_the_named_parameters_is_an_item_of_the_varargs():
    args = (2.0, 0.5, np.array([0.1, -0.4]))
    for wrt in (0, 1, 2):
        assert np.allclose(sg.grad(weighted, wrt=wrt)(*args), numeric_grad(weighted, args, wrt))
    with pytest.raises(ValueError, match=r"wrt=3 is out of range: weighted was called with 3"):
        sg.grad(weighted, wrt=3)(*args)


def test_an_index_past_the_parameters_of_a_function_without_varargs_is_refused():
    def two(x, y):
        return x * y

    with pytest.raises(ValueError, match=r"wrt=2 is out of range: two has 2 positional"):
        sg.grad(two, wrt=2)(1.0, 2.0)


def head_and_rest(x, *rest, k=2.0):
    return np.sum(x * rest[0] * rest[1] ** 2) * k


HEAD_ARGS = (np.array([0.3, -1.2, 0.7]), np.array([0.6, 0.2, -1.4]), np.array([-0.7, 1.1, 0.3]))


@pytest.mark.parametrize("wrt", [1, 2, (0, 2), (2, 1)])
def test_an_int_wrt_in_the_varargs_in_every_reverse_entry_point(wrt):
    positions = wrt if isinstance(wrt, tuple) else (wrt,)
    expected = [numeric_grad(head_and_rest, HEAD_ARGS, i) for i in positions]
    expected = expected[0] if not isinstance(wrt, tuple) else tuple(expected)
    value, gradient = sg.value_and_grad(head_and_rest, wrt=wrt)(*HEAD_ARGS)
    _, backward = sg.vjp(head_and_rest, wrt=wrt)(*HEAD_ARGS)
    assert np.isclose(value, head_and_rest(*HEAD_ARGS))
    for found in (sg.grad(head_and_rest, wrt=wrt)(*HEAD_ARGS), gradient, backward(1.0)):
        np.testing.assert_allclose(found, expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("wrt", [2, (0, 2)])
def test_an_int_wrt_in_the_varargs_in_forward_mode(wrt):
    rng = np.random.default_rng(3)
    positions = wrt if isinstance(wrt, tuple) else (wrt,)
    tangents = [rng.standard_normal(3) for _ in positions]
    eps = 1e-6

    def moved(step):
        args = list(HEAD_ARGS)
        for i, t in zip(positions, tangents):
            args[i] = args[i] + step * t
        return head_and_rest(*args)

    tangent = tuple(tangents) if isinstance(wrt, tuple) else tangents[0]
    value, derivative = sg.jvp(head_and_rest, wrt=wrt)(*HEAD_ARGS, tangent)
    assert np.isclose(value, head_and_rest(*HEAD_ARGS))
    assert np.isclose(derivative, (moved(eps) - moved(-eps)) / (2 * eps), rtol=1e-6)


def test_gradients_function_counts_varargs_positions_as_tensorflow_does():
    args = HEAD_ARGS
    # params=None: the named parameters only (getfullargspec's args); ints: any position
    (only,) = sg.gradients_function(head_and_rest)(*args)
    np.testing.assert_allclose(only, numeric_grad(head_and_rest, args, 0), rtol=1e-6)
    grads = sg.gradients_function(head_and_rest, params=[2, 1])(*args)
    for i, grad in zip((2, 1), grads):
        np.testing.assert_allclose(grad, numeric_grad(head_and_rest, args, i), rtol=1e-6)
    # *xs only: every call argument; an int argument gets None
    both = sg.gradients_function(weighted)(2.0, 0.5, np.array([0.1, -0.4]))
    for i, grad in enumerate(both):
        assert np.allclose(grad, numeric_grad(weighted, (2.0, 0.5, np.array([0.1, -0.4])), i))
    assert sg.gradients_function(weighted)(2.0, 3, np.array([0.1, -0.4]))[1] is None
    value, (grad,) = sg.value_and_gradients_function(weighted, params=[2])(
        2.0, 0.5, np.array([0.1, -0.4]))
    assert np.allclose(grad, [0.2, -0.8])
    with pytest.raises(IndexError, match="out of range"):
        sg.gradients_function(weighted, params=[3])(2.0, 0.5, 1.0)


def test_a_tape_records_a_call_of_a_compiled_varargs_function():
    compiled = sg.differentiable(head_and_rest)
    x, a, b = (sg.Variable(v.copy()) for v in HEAD_ARGS)
    with sg.GradientTape() as tape:
        y = compiled(x, a, b, k=3.0)
    grads = tape.gradient(y, [x, a, b])
    for i, grad in enumerate(grads):
        expected = numeric_grad(lambda *v: head_and_rest(*v, k=3.0), HEAD_ARGS, i)
        np.testing.assert_allclose(np.asarray(grad), expected, rtol=1e-6)
    with sg.GradientTape() as tape:
        y = compiled(x, x, b)     # one Variable at two positions
    expected = numeric_grad(lambda v: head_and_rest(v, v, HEAD_ARGS[2]), [HEAD_ARGS[0]], 0)
    np.testing.assert_allclose(np.asarray(tape.gradient(y, x)), expected, rtol=1e-6)


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
