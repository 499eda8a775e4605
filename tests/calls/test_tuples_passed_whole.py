"""A tuple that the function never takes apart, only passes whole to callees: the
cotangents the callees give back for it are added item by item (``+`` on two tuples
concatenated them: the gradient lost a callee's share, or came out 0 in a loop)."""

import numpy as np

import srcgrad as sg
from tests.calls.helpers import check_both_modes
from tests.calls.tuple_helpers import make, use
from tests.conftest import numeric_grad


def used_twice(x):
    t = make(x)
    return use(t, 1.0) + use(t, 2.0)


def used_in_a_loop(x):
    t = make(x)
    s = 0.0
    for k in range(3):
        s = s + use(t, k)
    return s


def tuple_parameter(t):
    return use(t, 1.0) * use(t, -0.5)


def test_a_tuple_passed_whole_to_two_calls():
    for x in (0.7, np.array([0.3, -1.2])):
        check_both_modes(lambda y: np.sum(used_twice(y)), [x])


def test_a_tuple_passed_whole_in_a_loop():
    check_both_modes(used_in_a_loop, [0.7])


def test_a_tuple_parameter_passed_whole_to_two_calls():
    t = (0.8, 1.3)
    grads = sg.grad(tuple_parameter)(t)
    numeric = numeric_grad(lambda a: tuple_parameter((a[0], a[1])), [np.array(t)], 0)
    assert np.allclose(grads, numeric)
