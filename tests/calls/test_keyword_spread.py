"""Values being differentiated passed by keyword to a callee known only when it runs:
``f(x, **kw)`` with ``kw`` a dict holding them, ``def g(**kw): return h(**kw)``
forwarding its keywords, ``obj.method(x, scale=s)``; in both modes against finite
differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.helpers import check_both_modes
from tests.rules.orders import composed, finite_difference

X = np.array([0.3, -1.2, 0.7])


def scaled(a, b=1.0, c=0.0):
    return a * b + np.sin(c)


def spreads_a_dict_of_keywords(x):
    options = {"b": x * x, "c": x[0]}
    return np.sum(scaled(x, **options))


def forwards(a, **kw):
    return scaled(a, **kw) * 2.0


def calls_a_forwarding_helper(x):
    return np.sum(forwards(x, b=np.cos(x), c=x[1]))


def packs(**kw):
    return kw["a"] * kw["b"]


def forwards_to_a_packing_helper(x):
    options = {"a": x, "b": np.exp(x)}
    return np.sum(packs(**options))


class Layer:
    def __init__(self, w):
        self.w = w

    def __call__(self, x, scale=1.0, shift=0.0):
        return np.tanh(x * self.w * scale) + shift


LAYER = Layer(np.array([0.5, -1.0, 2.0]))


def calls_a_method_by_keyword(x):
    return np.sum(LAYER(x, scale=x[2], shift=x * x))


def mixes_keywords_and_star_args(x):
    args = (x,)
    extra = {"c": x[1] * 3.0}
    return np.sum(scaled(*args, b=x[0], **extra))


@pytest.mark.parametrize("f", [spreads_a_dict_of_keywords, calls_a_forwarding_helper,
                               forwards_to_a_packing_helper, calls_a_method_by_keyword,
                               mixes_keywords_and_star_args])
def test_keywords_carry_derivatives_into_a_callee_known_when_it_runs(f):
    check_both_modes(f, [X.copy()])


def test_a_keyword_the_callee_does_not_take_is_a_type_error():
    def f(x):
        options = {"d": x}
        return np.sum(scaled(x, **options))

    with pytest.raises(TypeError, match="unexpected keyword argument 'd'"):
        sg.grad(f)(X.copy())


def test_keyword_values_through_a_tape_and_implicit_gradients():
    w = sg.Variable(np.array([0.4, 0.1, -0.3]))

    def f(x):
        options = {"b": w * x}
        return np.sum(scaled(x, **options))

    (gradient, variable), = sg.implicit_gradients(f)(X.copy())
    assert variable is w
    np.testing.assert_allclose(np.asarray(gradient), X * X, rtol=1e-6)


@pytest.mark.parametrize("f", [spreads_a_dict_of_keywords, forwards_to_a_packing_helper])
@pytest.mark.parametrize("mode", ["fwd-rev", "rev-rev", "fwd-fwd"])
def test_a_second_derivative_through_a_spread_dict(f, mode):
    """A dict spread into a call's keywords, or gathered by the callee's ``**kwargs``,
    differentiated twice, against finite differences of the program (orders 2 and 3 in
    every composition: tests/higher/test_keyword_orders.py)."""
    v = np.random.default_rng(2).standard_normal(3)
    numeric, rounding = finite_difference(f, X.copy(), v, 2)
    analytic = float(composed(f, X.copy(), v, mode))
    assert abs(analytic - numeric) <= 1e-4 * abs(numeric) + 1e-6 + rounding


@pytest.mark.parametrize("order, mode", [(2, "fwd-rev"), (2, "rev-rev"), (2, "fwd-fwd"),
                                         (3, "fwd-fwd-rev")])
def test_named_keywords_carry_derivatives_at_higher_orders(order, mode):
    """``LAYER(x, scale=x[2], shift=x * x)``: keywords named in the call, differentiated
    again, against finite differences of the program."""
    rng = np.random.default_rng(order)
    v = rng.standard_normal(3)
    numeric, rounding = finite_difference(calls_a_method_by_keyword, X.copy(), v, order)
    analytic = float(composed(calls_a_method_by_keyword, X.copy(), v, mode))
    assert abs(analytic - numeric) <= 1e-4 * abs(numeric) + 1e-6 + rounding
