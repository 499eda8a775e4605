"""custom_vjp, custom_jvp, defrule and defelementwise: the user's rules are called."""

import math

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.rules import REGISTRY
from tests.forward.helpers import close, directional_difference

CALLS = {"fwd": 0, "bwd": 0, "jvp": 0}


@sg.custom_vjp
def softplus(x):
    return np.log1p(np.exp(x))


def softplus_fwd(x):
    CALLS["fwd"] += 1
    e = np.exp(x)
    return np.log1p(e), e / (1.0 + e)


def softplus_bwd(sigmoid, g):
    CALLS["bwd"] += 1
    return (g * sigmoid,)


softplus.defvjp(softplus_fwd, softplus_bwd)


@sg.custom_jvp
def cube(x):
    return x ** 3


def cube_jvp(primals, tangents):
    CALLS["jvp"] += 1
    (x,), (t,) = primals, tangents
    return x ** 3, 3.0 * x ** 2 * t


cube.defjvp(cube_jvp)


def uses_softplus(x):
    return np.sum(softplus(x * 2.0))


def uses_cube(x):
    return cube(x) * 2.0


def test_custom_vjp_rules_are_called_by_the_generated_gradient():
    before = dict(CALLS)
    x = np.array([0.1, -0.4, 2.0])
    gradient = sg.grad(uses_softplus)(x)
    assert CALLS["fwd"] == before["fwd"] + 1 and CALLS["bwd"] == before["bwd"] + 1
    numeric = [directional_difference(uses_softplus, (x,), 0, e) for e in np.eye(3)]
    assert close(gradient, numeric)
    text = sg.source(sg.grad(uses_softplus))
    assert "softplus_forward(" in text and "softplus_backward(" in text


def test_custom_vjp_function_alone():
    before = CALLS["bwd"]
    assert close(sg.grad(softplus)(0.3), 1.0 / (1.0 + math.exp(-0.3)))
    assert CALLS["bwd"] == before + 1


def test_custom_jvp_rule_is_called_by_forward_code():
    before = CALLS["jvp"]
    assert sg.jvp(uses_cube)(2.0, 1.0) == (16.0, 24.0)
    assert CALLS["jvp"] == before + 1
    assert "cube_jvp(x, x_dot=x_dot)" in sg.source(sg.jvp(uses_cube))


def test_reverse_mode_differentiates_a_custom_jvp_function_itself():
    assert sg.grad(uses_cube)(2.0) == 24.0


@pytest.fixture
def scratch_rules():
    """Rows a test registers are removed afterwards (the table is process-wide)."""
    saved = dict(REGISTRY._rules), dict(REGISTRY._by_name)
    yield
    REGISTRY._rules, REGISTRY._by_name = saved


def test_defelementwise_row_serves_both_modes(scratch_rules):
    def my_sigmoid(x):
        return 1.0 / (1.0 + np.exp(-x))

    sg.defelementwise(my_sigmoid, "ans * (1 - ans)")

    def f(x):
        return np.sum(my_sigmoid(x) * x)

    x = np.array([0.5, -1.0])
    v = np.array([1.0, 2.0])
    numeric = directional_difference(f, (x,), 0, v)
    assert close(np.dot(sg.grad(f)(x), v), numeric)
    assert close(sg.jvp(f)(x, v)[1], numeric)


NORM_CALLS = []


def norm_direction(a):
    """Used by a rule template: templates see the differentiated function's globals."""
    NORM_CALLS.append(1)
    return a / np.sqrt(np.sum(a * a))


def test_defrule_template_with_a_tangent(scratch_rules):
    def scaled_norm(a, s):
        return s * np.sqrt(np.sum(a * a))

    sg.defrule(scaled_norm, "a, s", a="g * s * norm_direction(a)",
               s="g * np.sqrt(np.sum(a * a))",
               tangent={"a": "s * np.sum(norm_direction(a) * a_dot)",
                        "s": "s_dot * np.sqrt(np.sum(a * a))"})

    def f(a, s):
        return scaled_norm(a, s) ** 2

    a, s = np.array([3.0, 4.0]), 2.0
    assert close(sg.grad(f)(a, s), 2 * 10.0 * 2.0 * np.array([0.6, 0.8]))
    assert close(sg.jvp(f, wrt=1)(a, s, 1.0)[1], 2 * 10.0 * 5.0)
    assert close(sg.jvp(f)(a, s, np.array([1.0, 0.0]))[1], 2 * 10.0 * 2.0 * 0.6)
    assert NORM_CALLS


def test_jvp_of_a_custom_jvp_function_itself():
    """``sg.jvp`` of the custom_jvp object (not of a caller) calls its rule."""
    before = CALLS["jvp"]
    value, tangent = sg.jvp(cube)(2.0, 0.5)
    assert CALLS["jvp"] == before + 1
    assert close(value, 8.0) and close(tangent, 3.0 * 4.0 * 0.5)
