"""Local functions and lambdas given to ``map``, ``filter`` and ``functools.reduce``,
``functools.partial`` given there, closures returned by factories (``g = make(c)``,
``step(a)(x)``), and starred assignment targets: reverse, forward and hvp against central finite
differences, each derivative called twice; what stays unsupported is refused at the
user's line."""

import functools

import numpy as np
import pytest

import srcgrad as sg

V = np.array([0.3, -0.2, 0.5])
T = np.array([1.0, 0.5, -1.0])


def _fd(f, v, h=1e-6):
    return np.array([(f(v + h * e) - f(v - h * e)) / (2 * h) for e in np.eye(v.size)])


def check_all_modes(f):
    want = _fd(f, V)
    want_hvp = _fd(lambda v: _fd(f, v, 1e-4), V, 1e-4).T @ T
    for _ in range(2):
        np.testing.assert_allclose(sg.grad(f)(V.copy()), want, rtol=1e-6, atol=1e-8)
        value, tangent = sg.jvp(f)(V.copy(), T)
        np.testing.assert_allclose(value, f(V), rtol=1e-12)
        np.testing.assert_allclose(tangent, want @ T, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(sg.hvp(f)(V.copy(), T), want_hvp, rtol=1e-3, atol=1e-5)


def map_named_lambda(v):
    act = lambda z: np.tanh(2.0 * z)
    return sum(map(act, [v[0], v[1]])) * v[2]


def map_inline_lambda_two_lists(v):
    c = v[2] ** 2
    return sum(map(lambda a, b: a * b * c, [v[0], v[1]], [v[2], v[0]]))


def list_of_map_over_an_array(v):
    def act(z):
        return np.sin(z * v[0])
    return np.sum(np.array(list(map(act, v))))


def filter_named_lambda(v):
    keep = lambda z: z > 0
    return sum(filter(keep, [v[0], v[1], v[2] * v[0]]))


def filter_inline_lambda(v):
    return sum(filter(lambda z: z < 0.4, [v[0] ** 2, v[1], v[2]]))


def reduce_named_lambda(v):
    comb = lambda a, b: a * 0.5 + np.tanh(b)
    return functools.reduce(comb, [v[0], v[1], v[2]])


def reduce_def_with_a_start(v):
    def comb(a, b):
        return a * np.cos(b) + b
    return functools.reduce(comb, [v[0], v[1], v[2]], v[1] * 2.0)


def reduce_inline_lambda_in_a_loop(v):
    total = 0.0
    for k in range(3):
        total = total + functools.reduce(lambda a, b: a * b + k, [v[0], v[1], v[2]])
    return total


def scaled_tanh(theta, z, scale=1.0):
    return np.tanh(theta * z) * scale


def combined(w, a, b):
    return a * w + np.sin(b)


def map_partial_over_a_differentiated_value(v):
    data = [v[1], v[2], 0.3]
    return sum(map(functools.partial(scaled_tanh, v[0]), data))


def map_partial_with_a_keyword(v):
    return sum(map(functools.partial(scaled_tanh, v[0] * 2.0, scale=v[1]), [v[2], 0.5]))


def reduce_partial(v):
    return functools.reduce(functools.partial(combined, v[0]), [v[1], v[2], 0.2])


def partial_binds_early(v):
    theta = v[0]
    step = functools.partial(scaled_tanh, theta)
    return sum(map(step, [v[1], v[2]]))


def make(c):
    def inner(z):
        return np.sin(c * z)
    return inner


def step(a):
    return lambda x: x - 0.05 * (x ** 2 - a)


def factory_def(v):
    g = make(v[0])
    return np.sum(g(v))


def fixed_point_of_factory_steps(v):
    a = v[0] ** 2 + 1.0
    x = 1.0
    for _ in range(40):
        x = step(a)(x)
    return x * v[1]


def two_closures_of_one_factory(v):
    g1 = make(v[0])
    g2 = make(v[1] * 2.0)
    return np.sum(g1(v) * g2(v[2]))


def closure_keeps_its_argument(v):
    c = v[0]
    g = make(c)
    c = v[1]   # g still reads the first c
    return np.sum(g(v)) * c


def closure_made_in_a_loop(v):
    total = 0.0
    for k in range(3):
        g = make(v[k])
        total = total + np.sum(g(v)) * (k + 1)
    return total


def first_and_rest(v):
    x, y = v[0], v[1]
    first, *rest = [x, y, x * y]
    return first * rest[0] + rest[1] * v[2]


def middle_starred(v):
    a, *mid, b = (v[0], v[1], v[2], v[0] * v[1])
    return a * b + mid[0] * np.sin(mid[1])


def starred_from_a_list_value(v):
    items = [v[0] * 2.0, v[1], v[2]]
    *init, last = items
    return np.sum(np.array(init)) * last


@pytest.mark.parametrize("f", [
    map_named_lambda, map_inline_lambda_two_lists, list_of_map_over_an_array,
    filter_named_lambda, filter_inline_lambda, reduce_named_lambda, reduce_def_with_a_start,
    reduce_inline_lambda_in_a_loop, map_partial_over_a_differentiated_value,
    map_partial_with_a_keyword, reduce_partial, factory_def, fixed_point_of_factory_steps,
    two_closures_of_one_factory, closure_keeps_its_argument, closure_made_in_a_loop,
    first_and_rest, middle_starred,
    starred_from_a_list_value])
def test_in_every_mode(f):
    check_all_modes(f)


def stores_a_local_function(v):
    act = lambda z: z * 2.0
    fns = [act]
    fns.append(act)
    return fns[0](v[0])


def maps_a_lambda_per_item(v):
    return sum(sum(map(lambda z: z * c, [v[0], v[1]])) for c in [1.0, 2.0])


@pytest.mark.parametrize("f, construct, line_text", [
    (stores_a_local_function, "the list of functions `fns` is used as a value",
     "fns.append(act)"),
    (maps_a_lambda_per_item, "a `lambda` made for each item", "lambda z: z * c"),
    (partial_binds_early, "`functools.partial` of values being differentiated is supported "
                          "given straight to", "step = functools.partial(scaled_tanh, theta)"),
])
def test_other_uses_are_refused_at_the_line(f, construct, line_text):
    with pytest.raises(sg.TransformError, match=construct) as info:
        sg.grad(f)(V.copy())
    assert line_text in str(info.value)
