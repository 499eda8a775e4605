"""A name bound before a loop and rebound inside it, whose value from before the loop the
backward sweep reads after the reversed loop (``np.dot(b, b)``, then ``for ...: b = 1``):
the loop saves the old value before each rebinding, so the backward sweep finds the
value from before the loop once the loop is undone. Each against central finite
differences in every mode."""

import numpy as np
import pytest

from tests.soundness.oracle_modes import check_modes


def parameter_rebound_in_a_range_loop(b):
    z = np.dot(b, b)
    for _ in range(3):
        b = 1
    return z


def parameter_written_through_an_alias_then_rebound(b):
    z = np.dot(b, b)
    h = b
    h[0] *= z
    for _ in range(3):
        b = 1
    return np.sum(h)


def local_rebound_in_a_while_loop(x):
    t = np.sin(x)
    s = np.sum(t * t)
    k = 0
    while k < 2:
        t = x * (k + 1.0)
        s = s + np.sum(t)
        k += 1
    return s


def local_rebound_in_a_loop_over_an_array(x):
    m = x * x
    s = np.sum(np.sin(m))
    for v in x:
        m = v * 2.0
        s = s + m
    return s


def rebound_in_an_inner_loop(x):
    s = 0.0
    for i in range(2):
        p = x * (i + 1.0)
        s = s + np.sum(np.sin(p) * p)
        for _ in range(2):
            p = 0.5
    return s


def rebound_to_a_value_of_another_shape(x):
    w = np.outer(x, x)
    s = np.sum(np.sin(w))
    for i in range(3):
        w = x[i]
        s = s + w
    return s


CASES = [parameter_rebound_in_a_range_loop, parameter_written_through_an_alias_then_rebound,
         local_rebound_in_a_while_loop, local_rebound_in_a_loop_over_an_array,
         rebound_in_an_inner_loop, rebound_to_a_value_of_another_shape]


@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_a_value_from_before_the_loop_is_restored_after_it(f):
    assert np.any(check_modes(f, second_order=True) != 0.0)
