"""Derivatives of order two and three through ``scipy.integrate.odeint``, w.r.t. the
initial state, the output times and the items of ``args``, in every composition of
reverse and forward mode (``EVERY_MODE``: reverse directly over forward too), against
central finite differences of the program itself (``tests.rules.orders``).
Differentiated again, odeint's first derivative is a program integrating the adjoint or
sensitivity equations with odeint, its dynamics the user's generated derivative
(``srcgrad.compiler.dispatch_odeint``).

CI runs a fixed sample (every differentiated input, each order);
``--rule-orders-full`` runs every combination."""

import functools

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.compiler import dispatch_odeint
from tests.rules.orders import EVERY_MODE, composed, finite_difference

odeint = pytest.importorskip("scipy.integrate").odeint
TIMES = np.linspace(0.1, 0.2, 4)
Y0 = np.array([0.5, 0.2, -0.1])
ARG1, ARG2 = np.array([0.3, -0.2, 0.5]), np.array([0.1, 0.4, -0.3])


def func(y, t, arg1, arg2):   # autograd's test of odeint
    return -np.sqrt(t) - y + arg1 - np.mean((y + arg2) ** 2)


def decay(t, y, k, n):   # tfirst, a scalar rate and an integer among the args
    return -k * y * np.sin(t + 1.0) + 0.1 * y[::-1] ** n


SOLVE = functools.partial(odeint, rtol=1e-12, atol=1e-12)


def _programs(w):
    """Fresh closures for each check (units are cached on the function they compile)."""
    def initial_state(y0):
        return np.sum(w * odeint(func, y0, TIMES, args=(ARG1, ARG2), rtol=1e-12, atol=1e-12))

    def times(t):
        return np.sum(w * odeint(func, Y0, t, args=(ARG1, ARG2), rtol=1e-12, atol=1e-12))

    def arguments(a):   # both items of the args tuple
        return np.sum(w * odeint(func, Y0, TIMES, args=(a[:3], a[3:]), rtol=1e-12, atol=1e-12))

    def tfirst_rate(k):
        return np.sum(w[:, :2] * odeint(decay, Y0[:2], TIMES, args=(k, 2), tfirst=True,
                                        rtol=1e-12, atol=1e-12))

    def through_a_value(y0):   # odeint called through a value, its keywords with it
        return np.sum(w * SOLVE(func, y0, TIMES, args=(ARG1, ARG2)))

    return {"y0": (initial_state, Y0), "t": (times, TIMES), "value": (through_a_value, Y0),
            "args": (arguments, np.concatenate([ARG1, ARG2])), "tfirst": (tfirst_rate, 0.7)}


INPUTS = ("y0", "t", "args", "tfirst", "value")
COMBOS = [(wrt, order, mode) for wrt in INPUTS for order, modes in EVERY_MODE.items()
          for mode in modes]


def _id(combo):
    wrt, order, mode = combo
    return f"{wrt}-order{order}-{mode}"


# CI: each differentiated input at order two, in each composition, and the initial state
# at order three (forward over forward over forward: the order-three compositions through
# reverse mode take 5 to 40 s each here, and run with the full set).
SAMPLE = [("y0", 2, "rev-rev"), ("args", 2, "fwd-rev"), ("t", 2, "fwd-fwd"),
          ("tfirst", 2, "fwd-fwd"), ("value", 2, "fwd-rev"), ("t", 2, "rev-fwd"),
          ("y0", 3, "fwd-fwd-fwd"),
          ("value", 3, "fwd-fwd-fwd")]


def check(wrt, order, mode):
    rng = np.random.default_rng(len(wrt) + order)
    loss, x = _programs(rng.standard_normal((len(TIMES), 3)))[wrt]
    v = rng.standard_normal(np.shape(x))
    numeric, rounding = finite_difference(loss, x, v, order)
    for _ in range(2):   # called twice: the second call runs what the first compiled
        analytic = float(composed(loss, x, v, mode))
        tol = 1e-4 * max(abs(numeric), abs(analytic)) + 1e-6 + rounding
        assert abs(analytic - numeric) <= tol, (
            f"odeint w.r.t. {wrt}, order {order} ({mode}): finite differences {numeric!r}, "
            f"srcgrad {analytic!r}")


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_odeint_at_orders_two_and_three(combo):
    check(*combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_odeint_in_every_composition(combo):
    check(*combo)


def test_the_first_derivative_matches_finite_differences():
    rng = np.random.default_rng(0)
    for wrt in INPUTS:
        loss, x = _programs(rng.standard_normal((len(TIMES), 3)))[wrt]
        v = rng.standard_normal(np.shape(x))
        h = 1e-6
        numeric = (loss(x + h * v) - loss(x - h * v)) / (2 * h)
        for _ in range(2):
            assert np.isclose(np.sum(sg.grad(loss)(x) * v), numeric, rtol=1e-6), wrt
            assert np.isclose(sg.jvp(loss)(x, v)[1], numeric, rtol=1e-6), wrt


@pytest.fixture
def planted(monkeypatch):
    """The programs made while a piece is wrong are dropped after the test."""
    monkeypatch.setattr(dispatch_odeint, "_PROGRAMS", {})
    yield monkeypatch
    monkeypatch.undo()


@pytest.mark.parametrize("wrt, mode", [("args", "fwd-fwd"), ("y0", "fwd-fwd"),
                                       ("t", "fwd-rev")])
def test_a_wrong_program_fails_at_order_two(planted, wrt, mode):
    """The programs' flattened cotangents and tangents (read only from the second order
    on) off by 1%: the check fails."""
    right = dispatch_odeint._padded
    planted.setattr(dispatch_odeint, "_padded",
                    lambda value, shape: f"1.01 * {right(value, shape)}")
    with pytest.raises(AssertionError, match="finite differences"):
        check(wrt, 2, mode)


def test_a_wrong_first_derivative_fails_at_order_two(monkeypatch):
    from srcgrad.rules import REGISTRY

    rule = REGISTRY.lookup(odeint)
    monkeypatch.setitem(rule.tangent, "y0", "1.01 * " + rule.tangent["y0"])
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check("y0", 2, "fwd-fwd")
    finally:
        monkeypatch.undo()
        REGISTRY.changed()


def test_full_output_is_refused_at_order_two():
    def with_info(y0):
        path, _ = odeint(func, y0, TIMES, args=(ARG1, ARG2), full_output=True, rtol=1e-12,
                         atol=1e-12)
        return np.sum(path)
    with pytest.raises(NotImplementedError, match="full_output"):
        sg.hvp(with_info)(Y0, Y0)


def test_a_list_of_arrays_among_the_args_is_refused_at_order_two():
    def nested(y, t, params):
        return -params[0] * y + params[1]

    def loss(a):
        return np.sum(odeint(nested, Y0, TIMES, args=([a, ARG2],), rtol=1e-12, atol=1e-12))
    assert np.isfinite(sg.grad(loss)(ARG1)).all()   # the first order is supported
    with pytest.raises(sg.MissingRuleError, match="list, tuple or dict"):
        sg.hvp(loss)(ARG1, ARG2)


def test_options_spread_into_odeint_at_order_three_forward():
    """``odeint(..., args=..., **options)`` is a call whose keywords are known when it runs:
    differentiated a third time in forward mode, the wrapper around its generated jvp takes
    the keyword ``args`` beside its own parameters, and odeint's dynamics among the call's
    arguments stays a constant."""
    options = {"rtol": 1e-12, "atol": 1e-12}
    w = np.random.default_rng(5).standard_normal((len(TIMES), 3))

    def spread(y0):
        return np.sum(w * odeint(func, y0, TIMES, args=(ARG1, ARG2), **options))
    v = np.array([0.3, -0.6, 0.2])
    numeric, rounding = finite_difference(spread, Y0, v, 3)
    analytic = float(composed(spread, Y0, v, "fwd-fwd-fwd"))
    assert abs(analytic - numeric) <= 1e-4 * abs(numeric) + 1e-6 + rounding


def _autograd_case():
    rs = np.random.RandomState(1)
    return func, rs.randn(3), np.linspace(0.1, 0.2, 4), (rs.randn(3), rs.randn(3))


AUTOGRAD_FORM = [pytest.param(3, 2, ("fwd", "rev"), id="args-order2")] + [
    pytest.param(argnum, order, modes, id=f"argnum{argnum}-order{order}-{'-'.join(modes)}",
                 marks=pytest.mark.rule_orders_full)
    for argnum, order, modes in [(1, 2, ("fwd", "rev")), (2, 2, ("fwd", "rev")),
                                 (1, 3, ("rev",)), (2, 3, ("fwd",)), (3, 3, ("rev",))]]


@pytest.mark.parametrize("argnum, order, modes", AUTOGRAD_FORM)
def test_autograd_form_of_the_odeint_check(argnum, order, modes):
    """autograd's own test of odeint, ``combo_check(integrate.odeint, [1, 2, 3])`` (scipy's
    default tolerances; the recursion through reverse mode at order three keeps odeint's
    dynamics among the fixed arguments, whose cotangent is a zero)."""
    from srcgrad.testing import check_grads

    check_grads(odeint, argnum=argnum, order=order, modes=list(modes))(*_autograd_case())
