"""``f(*args)`` at a call site: user functions, rule-table functions, methods and
callees taking ``*args``, in reverse and forward mode and through implicit_gradients."""

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.helpers import check_both_modes, implicit_gradient


def scaled_product(a, b, scale=1.0):
    return a * b * scale


def sum_of_squares(*xs):
    total = 0.0
    for v in xs:
        total = total + np.sum(v * v)
    return total


def unpacks_a_tuple_into_a_user_function(x):
    params = (x, np.sin(x))
    return np.sum(scaled_product(*params))


def unpacks_a_list_between_other_arguments(x):
    rest = [2.0 * x]
    return np.sum(scaled_product(x, *rest, 3.0))


def unpacks_into_varargs(x):
    terms = [x, x ** 2]
    return sum_of_squares(x, *terms, 2.0)


def unpacks_into_a_rule(x):
    pair = [x, 0.5 * x ** 2]
    return np.sum(np.maximum(*pair))


def unpacks_a_shape(x):
    rs = np.random.RandomState(0)
    noise = rs.randn(*x.shape)
    return np.sum(np.tanh(x + noise) * noise)


def unpacks_array_rows(x):
    rows = np.stack([x, 3.0 * x])
    return sum_of_squares(*rows)


def unpacks_a_method_argument(x):
    m = np.outer(x, x)
    shape = (x.size * x.size,)
    return np.sum(np.cos(m.reshape(*shape)))


@pytest.mark.parametrize("f", [
    unpacks_a_tuple_into_a_user_function, unpacks_a_list_between_other_arguments,
    unpacks_into_varargs, unpacks_into_a_rule, unpacks_a_shape, unpacks_array_rows,
    unpacks_a_method_argument])
def test_unpacked_arguments_against_finite_differences(f):
    check_both_modes(f, (np.array([0.3, -1.2, 0.7]),))


def test_scalar_unpacked_into_a_user_function():
    def f(x):
        params = (x, 2.0)
        return scaled_product(*params)

    assert check_both_modes(f, (3.0,)) == pytest.approx(2.0)


def test_unpacking_a_parameter_tuple():
    def f(params, x):
        return np.sum(scaled_product(x, *params))

    params = (np.array([1.0, 2.0]), 0.5)
    grads = sg.grad(f)(params, np.array([3.0, 4.0]))
    assert np.allclose(grads[0], np.array([3.0, 4.0]) * 0.5)
    assert np.isclose(grads[1], np.sum(np.array([1.0, 2.0]) * np.array([3.0, 4.0])))


W = sg.Variable(np.array([0.5, -0.25]))


def test_implicit_gradients_through_an_unpacked_call():
    def loss(x):
        parts = [W, x]
        return np.sum(scaled_product(*parts) ** 2)

    x = np.array([1.5, 2.0])
    expected = 2 * W.numpy() * x ** 2
    assert np.allclose(implicit_gradient(loss, W, x), expected)


def test_two_unpackings_of_differentiated_values_are_refused():
    def f(x):
        a, b = [x], [2.0 * x]
        return scaled_product(*a, *b)

    with pytest.raises(sg.TransformError, match=r"several `\*` unpackings") as info:
        sg.grad(f)(1.0)
    assert "scaled_product(*a, *b)" in str(info.value)


def test_a_keyword_unpacking_of_differentiated_values_carries_their_derivative():
    def f(x):
        options = {"b": x}
        return scaled_product(x, **options)

    assert sg.grad(f)(1.5) == pytest.approx(3.0)        # d/dx x * x
    assert sg.jvp(f)(1.5, 2.0)[1] == pytest.approx(6.0)


def test_keyword_unpacking_of_constants():
    def f(x):
        options = {"axis": 0}
        return np.sum(np.cumsum(x, **options) ** 2)

    check_both_modes(f, (np.array([0.5, 1.0, -2.0]),))


def transposes_pairs(x):
    pairs = [(x, 1.5), (2.0 * x, np.cos(x)), (x ** 2, 0.5)]
    firsts, seconds = zip(*pairs)
    return np.sum(firsts[1] * seconds[1]) + np.sum(np.stack(firsts) ** 2)


def loops_over_transposed_rows(x):
    rows = [[x, np.sin(x)], [x * x, 2.0]]
    total = 0.0
    for a, b in zip(*rows):
        total = total + np.sum(a * b)
    return total


@pytest.mark.parametrize("f", [transposes_pairs, loops_over_transposed_rows])
def test_zip_of_unpacked_rows(f):
    check_both_modes(f, (np.array([0.4, -0.9]),))


def test_zip_of_unpacked_rows_keeps_tuples():
    def f(x):
        a, b = zip(*[(x, 1.0), (x, 2.0)])
        return a[0] * b[1] + a[1] * b[0] + len(a + (1, 2))

    assert sg.grad(f)(3.0) == pytest.approx(3.0)


def tuple_grown_in_a_loop(x):
    values = ()
    for i in range(3):
        values = values + (x[i] ** 3,)   # concatenation, not arithmetic
    return values[2] - values[1] * values[0]


def test_a_tuple_grown_by_concatenation_in_a_loop():
    check_both_modes(tuple_grown_in_a_loop, [np.array([0.3, -1.2, 0.7])])
