"""A negated backward temporary absorbs its negation into a negation inside its product
(``optimize.negations``): fewer array operations, the same numbers bit for bit."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.optimize.negations import cancel_negations
from tests.conftest import numeric_grad
from tests.passes.helpers import expect, show, statements


def sigmoid_gates(z, w):
    gate = 1.0 / (1.0 + np.exp(-(z * w)))
    return np.sum(gate * np.tanh(z))


def negated_twice(x):
    y = -x
    return np.sum(np.exp(-y * 3.0) / (2.0 - np.sin(y)))


RNG = np.random.default_rng(23)


@pytest.mark.parametrize("wrt", [0, 1])
def test_sigmoid_backward_has_no_double_negation_and_is_exact(wrt):
    source = sg.source(sg.grad(sigmoid_gates, wrt))
    assert "(-gate / " not in source and "* (gate / _add) * _exp" in source
    args = [RNG.standard_normal(5), RNG.standard_normal(5)]
    np.testing.assert_allclose(sg.grad(sigmoid_gates, wrt)(*args),
                               numeric_grad(sigmoid_gates, args, wrt), rtol=1e-6, atol=1e-8)


def test_the_numbers_are_those_of_the_negations_bit_for_bit():
    z, w = RNG.standard_normal(7), RNG.standard_normal(7)
    gate = 1.0 / (1.0 + np.exp(-(z * w)))
    g = np.tanh(z)
    by_negations = -((g * (-gate / (1.0 + np.exp(-(z * w))))) * np.exp(-(z * w)))
    cancelled = g * (gate / (1.0 + np.exp(-(z * w)))) * np.exp(-(z * w))
    np.testing.assert_array_equal(by_negations, cancelled)


def test_a_function_of_a_negation_still_matches_finite_differences():
    x = RNG.standard_normal(4)
    np.testing.assert_allclose(sg.grad(negated_twice)(x), numeric_grad(negated_twice, [x], 0),
                               rtol=1e-6, atol=1e-8)


def _cancelled(source, keep=()):
    return show(cancel_negations(statements(source), keep))


def test_the_pass_moves_single_use_temporaries_into_the_negation():
    assert _cancelled("""
        d_add = dy * (-y / _add)
        d_neg_ = d_add * _exp
        d_neg = -d_neg_
        """) == expect("""
        d_neg = dy * (y / _add) * _exp
        """)


def test_a_number_takes_the_negation():
    assert _cancelled("t = g * 2\nd = -t\n") == expect("d = g * -2\n")


@pytest.mark.parametrize("source", [
    "t = a * (-b / c)\nu = t + 1\nd = -t\n",          # t read twice
    "t = a * (-b / c)\na = g * 2\nd = -t\n",          # an operand rebound between
    "t = a * (-b / c)\nq = f(a)\nd = -t\n",           # a call between (it could write into a)
    "t = np.exp(a)\nd = -t\n",                        # nothing to cancel in a call
    "t = a * b\nd = -t\n",                            # nor in a product of names
    "t = a @ (-b)\nd = -t\n",                         # a matrix product is not arithmetic here
])
def test_the_pass_leaves_what_it_cannot_prove_alone(source):
    assert _cancelled(source) == show(statements(source))


def test_names_read_after_the_sweep_stay():
    source = "t = a * (-b / c)\nd = -t\n"
    assert _cancelled(source, keep={"t"}) == show(statements(source))


def test_blocks_are_separate():
    source = """
        t = a * (-b)
        for i in r:
            d = -t
        """
    assert _cancelled(source) == show(statements(source))


def test_the_split_backward_reads_what_the_moved_statements_read():
    # the moved operands (gate, _add, _exp) are residuals of the split forward sweep
    args = [RNG.standard_normal(5), RNG.standard_normal(5)]
    value, backward = sg.vjp(sigmoid_gates, 1)(*args)
    np.testing.assert_allclose(value, sigmoid_gates(*args))
    np.testing.assert_allclose(backward(1.0), numeric_grad(sigmoid_gates, args, 1),
                               rtol=1e-6, atol=1e-8)
