"""``max``/``min`` of one sequence (a list, a generator, an array) and of more than two
values: folds of the two-argument rule, in both modes, against finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.helpers import check_both_modes

X = np.array([0.3, -1.2, 0.7])


def max_of_a_list(x):
    return max([x[0], x[1], x[2] * 2.0]) * min(x[0], x[1], x[2])


def max_of_an_array_and_min_of_a_generator(x):
    return max(x) + min(np.sin(v) for v in x)


def max_of_a_tuple_built_in_a_loop(x):
    values = ()
    for i in range(3):
        values = values + (x[i] ** 3,)
    return max(values) - min(values)


@pytest.mark.parametrize("f", [max_of_a_list, max_of_an_array_and_min_of_a_generator,
                               max_of_a_tuple_built_in_a_loop])
def test_max_and_min_of_a_sequence_or_many_values(f):
    check_both_modes(f, [X.copy()])


def test_max_of_a_list_is_twice_differentiable():
    def f(x):
        return max([x[0] * x[1], x[2]]) ** 2

    v = np.array([1.0, 0.5, -2.0])
    # x0 x1 = -0.36 < x2 = 0.7, so f = x2 ** 2 near X: H = diag(0, 0, 2)
    np.testing.assert_allclose(sg.hvp(f)(X.copy(), v), [0.0, 0.0, 2.0 * v[2]])


def test_max_with_a_key_is_refused_by_name():
    def f(x):
        return max([x[0], x[1]], key=abs)

    with pytest.raises(sg.TransformError, match="max"):
        sg.grad(f)(X.copy())
