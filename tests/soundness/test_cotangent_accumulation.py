"""The cotangents of a local used more than once are added with ``+`` only where the
source proves the local a number or an array; a list, tuple or dict the code cannot see
(a called helper's result, a container's item, a method's result, a list of a parameter)
is added item by item when it runs. ``+`` on list cotangents concatenated them: the
gradient came out as one use's (half the right value) or of the wrong length.

``a + b`` the code does not prove arithmetic is a concatenation if both sides are lists
or tuples when it runs (each gets its part of the cotangent); a list operand of ``*``
whose result is a list (repetition) is refused when it runs.
Each case against central finite differences in every mode."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
from tests.soundness.oracle_modes import check_modes
from tests.soundness.structure_helpers import Pairs, dict_pair, pair, tuple_pair

PAIRS = Pairs()
TABLE = {"rows": None}


def helper_list_as_an_array_twice(x):
    p = pair(x)
    q = np.array(p) * np.array(p)
    return np.sum(q) + x[2]


def helper_list_summed_twice(x):
    p = pair(x)
    return np.sum(p) * np.sum(p) + p[1]


def helper_tuple_summed_twice(x):
    p = tuple_pair(x)
    return np.sum(p) * np.sum(p) + p[0] * x[2]


def helper_dict_values_twice(x):
    p = dict_pair(x)
    v = list(p.values())
    return np.sum(np.array(v) * np.array(v)) + x[2]


def method_result_twice(x):
    p = PAIRS.pair(x)
    return np.sum(np.array(p) ** 2) * np.sum(p) + x[2]


def list_of_an_array_twice(x):
    b = list(x)
    return np.sum(np.array(b) * np.array(b))


def slice_of_a_list_twice(x):
    b = [x[0], x[1], x[2]]
    c = b[:]
    return np.sum(np.array(c) * np.array(c))


def item_of_a_nested_list_twice(x):
    b = [x[0], x[1]]
    c = [b, [x[2], x[2]]]
    d = c[0]
    return np.sum(np.array(d) * np.array(d)) + np.sum(c[1])


def tuple_of_a_list_twice(x):
    b = tuple([x[0], x[1] * x[2]])
    return np.sum(np.array(b) * np.array(b))


def split_twice(x):
    parts = np.split(x, 3)
    return np.sum(np.array(parts) * np.array(parts))


def map_twice(x):
    b = list(map(np.sin, x))
    return np.sum(np.array(b) * np.array(b))


def tolist_twice(x):
    b = x.tolist()
    return np.sum(np.array(b) * np.array(b))


CASES = [helper_list_as_an_array_twice, helper_list_summed_twice, helper_tuple_summed_twice,
         helper_dict_values_twice, method_result_twice, list_of_an_array_twice,
         slice_of_a_list_twice, item_of_a_nested_list_twice, tuple_of_a_list_twice,
         split_twice, map_twice, tolist_twice]


@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_structures_used_twice_are_added_item_by_item(f):
    assert np.any(check_modes(f) != 0.0)


def test_a_list_parameter_used_twice():
    def f(xs):
        return np.sum(np.array(xs) * np.array(xs)) + xs[0]

    xs = [0.3, 0.7]
    got = sg.grad(f)(xs)
    np.testing.assert_allclose(got, [2 * 0.3 + 1.0, 2 * 0.7])


def repeats_a_parameter(a):
    c = a * 2
    return np.sum(np.array(c) * np.arange(4.0))


def repeats_a_display(a):
    b = [a[0], a[1]]
    c = b * 2
    return np.sum(np.array(c) * np.arange(4.0))


@pytest.mark.parametrize("f, args", [
    (repeats_a_parameter, ([0.3, 0.7],)),
    (repeats_a_display, (np.array([0.3, 0.7]),)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_sequence_repetition_is_refused_when_it_runs(f, args):
    with pytest.raises(sg.TransformError, match="concatenation or repetition"):
        sg.grad(f)(*args)


def concatenates_a_helper_list(x):
    p = pair(x)
    q = p + p
    return np.sum(np.array(q) * np.arange(4.0)) + x[2]


def concatenates_a_tuple(x):
    t = tuple_pair(x)
    q = t + (x[2],)
    return np.sum(np.array(q) * np.arange(1.0, 4.0))


@pytest.mark.parametrize("f", [concatenates_a_helper_list, concatenates_a_tuple],
                         ids=lambda f: f.__name__)
def test_concatenation_the_code_does_not_show_is_differentiated(f):
    assert np.any(check_modes(f) != 0.0)


def test_two_list_parameters_concatenated():
    def f(a, b):
        c = a + b
        return np.sum(np.array(c) * np.arange(1.0, 5.0))

    da, db = sg.grad(f, wrt=(0, 1))([0.3, 0.7], [1.1, 2.0])
    np.testing.assert_allclose(da, [1.0, 2.0])
    np.testing.assert_allclose(db, [3.0, 4.0])


def list_plus_an_array(x):
    c = [x[0], x[1], x[2]] + x * 2.0    # NumPy's sum: an array
    return np.sum(c * c)


def list_times_an_array(x):
    c = [1.0, 2.0, 3.0] * x
    return np.sum(c * c)


@pytest.mark.parametrize("f", [list_plus_an_array, list_times_an_array],
                         ids=lambda f: f.__name__)
def test_numpy_arithmetic_with_a_list_operand_is_differentiated(f):
    x = np.array([0.3, 0.7, 1.1])
    np.testing.assert_allclose(sg.grad(f)(x), numeric_grad(f, [x], 0), rtol=1e-6, atol=1e-8)


def list_display_rebound_in_a_loop(x):
    for i in range(2):
        b = [x[0] * i, x[1]]
    return np.sum(np.array(b) * np.array(b)) + x[2]


def test_a_list_display_rebound_in_a_loop():
    """The display's cotangent is the None slots the next iteration's reset left: its
    items are read as zeros (``b[0]`` of the slots raised a TypeError)."""
    assert np.any(check_modes(list_display_rebound_in_a_loop) != 0.0)
