"""Second order through the user's own rules: forward mode over a generated gradient
resolves the rule's function through the generated code's live globals (it used to
miss it there and raise MissingRuleError). Closed forms are the oracle."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.rules import REGISTRY


@pytest.fixture
def scratch_rules():
    saved = dict(REGISTRY._rules), dict(REGISTRY._by_name)
    yield
    REGISTRY._rules, REGISTRY._by_name = saved


def my_sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def sum_of_sigmoids(x):
    return np.sum(my_sigmoid(x))


def cube(x):
    return x ** 3


def uses_cube(x):
    return np.sum(cube(x) * 2.0)


def test_hvp_through_a_defelementwise_row(scratch_rules):
    sg.defelementwise(my_sigmoid, "ans * (1 - ans)")
    x, v = np.array([0.5, -1.0, 2.0]), np.array([1.0, -2.0, 0.5])
    s = 1.0 / (1.0 + np.exp(-x))
    assert np.allclose(sg.hvp(sum_of_sigmoids)(x, v), s * (1 - s) * (1 - 2 * s) * v)


def test_hessian_through_a_defrule_row(scratch_rules):
    sg.defrule(cube, "x", x="g * 3 * x ** 2", tangent={"x": "3 * x ** 2"})
    x = np.array([1.0, 2.0])
    assert np.allclose(sg.hessian(uses_cube)(x), np.diag(12.0 * x))
