"""Forward mode (sg.jvp) against central finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.forward.helpers import close, directional_difference


def poly(x, w):
    return np.sum(np.tanh(x * w) ** 2) + w ** 3


def loop_with_branch(x, w):
    h = x
    for _ in range(3):
        h = np.tanh(h * w) + h[0]
    if np.sum(h) > 0:
        h = h * 2.0
    return np.sum(h ** 2)


def while_loop(x):
    y = x
    while y < 10.0:
        y = y * 1.5 + np.sin(y)
    return y


def helper(a, b):
    return a * np.exp(b)


def calls_helper(x, w):
    return np.sum(helper(x, w) + helper(w, x))


def container_writes(x):
    out = np.zeros(3)
    out[0] = x[1] * 2.0
    items = []
    for v in x:
        items.append(v * v)
    out[2] = items[-1] + items.pop()
    return out


def broadcast_add(x, b):
    return np.sum((x + b) ** 2)


def early_return(x):
    for i in range(5):
        if x > 2.0:
            return x * i
        x = x * 1.7
    return x


CASES = [
    (poly, (np.array([0.3, -0.2, 0.5]), 0.7), 0),
    (poly, (np.array([0.3, -0.2, 0.5]), 0.7), 1),
    (loop_with_branch, (np.array([0.3, -0.2, 0.5]), 0.7), 0),
    (loop_with_branch, (np.array([0.3, -0.2, 0.5]), 0.7), 1),
    (while_loop, (1.3,), 0),
    (calls_helper, (np.array([0.1, 0.4]), np.array([0.2, -0.3])), 0),
    (calls_helper, (np.array([0.1, 0.4]), np.array([0.2, -0.3])), 1),
    (container_writes, (np.array([0.5, -1.5, 2.0]),), 0),
    (broadcast_add, (1.5, np.array([0.2, -0.3, 0.7])), 0),
    (early_return, (1.1,), 0),
]


@pytest.mark.parametrize("f, args, index", CASES,
                         ids=[f"{c[0].__name__}-{c[2]}" for c in CASES])
def test_jvp_matches_finite_differences(f, args, index):
    rng = np.random.default_rng(index)
    direction = rng.standard_normal(np.shape(args[index]))
    direction = direction if np.ndim(args[index]) else float(direction)
    value, derivative = sg.jvp(f, wrt=index)(*args, direction)
    assert close(value, f(*args))
    assert close(derivative, directional_difference(f, args, index, direction))


def test_jvp_of_a_tuple_of_inputs():
    x, w = np.array([0.3, -0.2]), 0.7
    u, v = np.array([1.0, 0.5]), -0.4
    _, derivative = sg.jvp(poly, wrt=(0, 1))(x, w, (u, v))
    numeric = (poly(x + 1e-6 * u, w + 1e-6 * v) - poly(x - 1e-6 * u, w - 1e-6 * v)) / 2e-6
    assert close(derivative, numeric)


def test_unvaried_result_has_a_zero_tangent():
    def constant_in_x(x, w):
        return w * 2.0

    assert sg.jvp(constant_in_x)(1.0, 3.0, 1.0) == (6.0, 0.0)


def test_source_is_readable_forward_code():
    text = sg.source(sg.jvp(poly, wrt=1))
    assert "def poly_jvp(x, w, w_dot):" in text
    assert "w_dot" in text and "stack" not in text
    assert "x_dot" not in text          # a tangent never set costs nothing


def reverse_only_square(x):
    return x * x


def test_missing_forward_rule_is_reported():
    from srcgrad.rules import REGISTRY

    def uses_unknown(x):
        return np.sum(reverse_only_square(x))

    sg.defrule(reverse_only_square, "x", x="2 * g * x")   # no tangent=: reverse mode only
    rule = REGISTRY.lookup(reverse_only_square)
    try:
        with pytest.raises(sg.MissingRuleError, match="no forward-mode rule for"):
            sg.jvp(uses_unknown)(np.eye(2), np.eye(2))
    finally:
        REGISTRY._rules.pop(reverse_only_square, None)
        REGISTRY._by_name.pop(rule.name, None)
