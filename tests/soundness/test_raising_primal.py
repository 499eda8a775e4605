"""The derivative of a call that raises, raises: the same exception as the function
itself, in every API, also when the statement that raises computes a value nothing reads
(dead code elimination keeps the user's statements that may raise) and when the write
that raises is into a read-only argument (the private copy of a written argument keeps
it read-only). Where the same functions do not raise, their gradients match finite
differences."""

import math

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad


def writes_read_only(x, k):
    x[0] = 2.0 * x[1] * k
    return np.sum(x * x)


def unused_index(x, k):
    _unused = x[5 - 2 * int(k)]
    return np.sum(x * x)


def unused_sqrt(x, k):
    _unused = math.sqrt(k - 1.5 - x[0] * x[0])
    return np.sum(np.sin(x))


def unused_inverse(x, k):
    _unused = np.linalg.inv(np.eye(2) * (k - 1.0))
    return np.sum(x ** 3)


def unused_division(x, k):
    _unused = 1.0 / (k - 1.0)
    return np.sum(x) * k


def unused_key(x, k):
    table = {2.0: 1.0}
    _unused = table[k]
    return np.sum(x * k)


def unused_attribute(x, k):
    _unused = x.T if k > 1.0 else x.not_an_attribute
    return np.sum(x * x)


def unused_in_a_loop(x, k):
    total = 0.0
    for i in range(2):
        _unused = x[i + 5 - 2 * int(k)]
        total = total + x[i] * x[i]
    return total


def bare_expression(x, k):
    x[5 - 2 * int(k)]   # noqa: B018 (evaluated for its exception)
    return np.sum(x * x)


def unused_scalar_division(x, k):
    _unused = k / (k - 1.0)
    return x * x * k


CASES = [writes_read_only, unused_index, unused_sqrt, unused_inverse, unused_division,
         unused_key, unused_attribute, unused_in_a_loop, bare_expression]
GOOD_K = 2.0   # no exception
BAD_K = 1.0    # the primal raises


def x_for(f, writable=True):
    x = 0.7 if f is unused_scalar_division else np.array([0.5, -0.3, 0.8])
    if isinstance(x, np.ndarray):
        x.flags.writeable = writable
    return x


APIS = {
    "grad": lambda f, x, k: sg.grad(f)(x, k),
    "value_and_grad": lambda f, x, k: sg.value_and_grad(f)(x, k),
    "vjp": lambda f, x, k: sg.vjp(f)(x, k)[1](1.0),
    "jvp": lambda f, x, k: sg.jvp(f)(x, k, np.ones_like(x)),
    "hvp": lambda f, x, k: sg.hvp(f)(x, k, np.ones_like(x)),
    "jacobian": lambda f, x, k: sg.jacobian(f)(x, k),
    "gradients_function": lambda f, x, k: sg.gradients_function(f, params=[0])(x, k),
}


def primal_exception(f, x, k):
    try:
        f(x, k)
    except Exception as error:   # noqa: BLE001 (the type is what is compared)
        return type(error)
    raise AssertionError(f"{f.__name__} was meant to raise at k={k}")


@pytest.mark.parametrize("api", sorted(APIS))
@pytest.mark.parametrize("f", CASES + [unused_scalar_division], ids=lambda f: f.__name__)
def test_raises_what_the_function_raises(f, api):
    writable = f is not writes_read_only
    k = GOOD_K if f is writes_read_only else BAD_K
    expected = primal_exception(f, x_for(f, writable), k)
    for _ in range(2):
        with pytest.raises(expected):
            APIS[api](f, x_for(f, writable), k)


@pytest.mark.parametrize("f", CASES + [unused_scalar_division], ids=lambda f: f.__name__)
def test_where_it_does_not_raise_the_gradient_is_right(f):
    x = x_for(f)
    expected = numeric_grad(lambda v: f(np.array(v, copy=True) if np.ndim(v) else v, GOOD_K),
                            [x], 0)
    np.testing.assert_allclose(sg.grad(f)(x_for(f), GOOD_K), expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("f", [unused_index, unused_division, unused_in_a_loop],
                         ids=lambda f: f.__name__)
def test_a_tape_raises_too(f):
    compiled = sg.differentiable(f)
    expected = primal_exception(f, x_for(f), BAD_K)
    for _ in range(2):
        variable = sg.Variable(x_for(f))
        with pytest.raises(expected):
            with sg.GradientTape():
                compiled(variable, BAD_K)
