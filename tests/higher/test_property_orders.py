"""A property's getter differentiated three times (``tests/higher/property_programs.py``:
dataclasses, NamedTuples and plain classes; properties calling methods and reading
properties, methods reading properties, objects in lists and dicts, keyword defaults) in
every composition of reverse and forward mode at orders 2 and 3, against central finite
differences of the program itself. CI checks a sample (below); ``--rule-orders-full``
checks all.

Differentiated again, the helpers of a property's second derivative
(``_sg.field_tangent_object_term``, ``property_curvature``, ``property_object_adjoint``,
``attr_item_adjoint``, ``field_tangent_object_adjoint``) resolve when they run to what
they compute written as code srcgrad compiles (``srcgrad.compiler.dispatch_properties``),
whose calls of the getter are differentiated one order higher each time."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad import runtime as _sg
from srcgrad.compiler.property_vjp import property_jvp, property_vjp
from tests.higher.property_programs import PROGRAMS, dataclass_property, namedtuple_property
from tests.rules.orders import ORDER_MODES, composed, finite_difference, hash_sample, pair

# Beyond tests.rules.orders' compositions, the rest of every composition of two and of
# three transforms: reverse mode over forward mode (a gradient of a jvp, refused through
# a property before), and the orders of three that mix them otherwise.
EXTRA_MODES = {2: ("rev-fwd",), 3: ("fwd-rev-rev", "fwd-rev-fwd", "rev-fwd-fwd", "rev-rev-fwd")}
COMBOS = [(p, order, mode) for p in PROGRAMS for order in (2, 3)
          for mode in ORDER_MODES[order] + EXTRA_MODES[order]]
# CI: every other program at order 3 in one of tests.rules.orders' compositions
# (rotating), and one program for each of the other compositions (the smallest CRC-32).
SAMPLE = [(p, 3, ORDER_MODES[3][i % 4]) for i, p in enumerate(PROGRAMS[::2])] + hash_sample(
    [c for c in COMBOS if c[2] in EXTRA_MODES[c[1]]], lambda c: c[2],
    lambda c: f"{c[0].__name__}-{c[2]}")


def _id(combo):
    program, order, mode = combo
    return f"{program.__name__}-order{order}-{mode}"


def check(program, order, mode):
    rng = np.random.default_rng(len(program.__name__) + order)
    x = rng.uniform(0.2, 1.2, 6)
    v = rng.standard_normal(6)
    numeric, rounding = finite_difference(program, x, v, order)
    for _ in range(2):   # called twice: the second call runs what the first compiled
        analytic = float(composed(program, x, v, mode) if mode in ORDER_MODES[order]
                         else _nested(program, v, mode)(x))
        tol = 1e-4 * max(abs(numeric), abs(analytic)) + 1e-6 + rounding
        assert abs(analytic - numeric) <= tol, (
            f"{program.__name__}, order {order} ({mode}): finite differences {numeric!r}, "
            f"srcgrad {analytic!r}")


def _nested(loss, v, mode):
    """``y -> D^k loss(y)[v, ..., v]`` by ``mode``'s transforms, the outermost first:
    ``rev`` is ``<grad(f)(y), v>``, ``fwd`` is ``jvp(f)(y, v)[1]``."""
    for transform in reversed(mode.split("-")):
        loss = _along(loss, v, transform)
    return loss


def _along(fn, v, transform):
    if transform == "fwd":
        derivative = sg.jvp(fn)
        return lambda y: derivative(y, v)[1]
    gradient = sg.grad(fn)
    return lambda y: pair(gradient(y), v)


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_properties_at_orders_two_and_three(combo):
    check(*combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_properties_in_every_composition(combo):
    check(*combo)


def _wrong_property_term(obj, v, getter, direction):
    value, tangent = _sg.dynamic_jvp(property_jvp, None, (obj, v, getter),
                                     (direction, None, None))
    return 1.01 * tangent


def _wrong_curvature(dx_dot, g, obj, obj_dot, getter):
    value, tangent = _sg.dynamic_jvp(property_vjp, None, (obj, 1.01 * g, getter),
                                     (obj_dot, None, None))
    return _sg.add_cotangents(dx_dot, tangent)


@pytest.mark.parametrize("twin, wrong, mode", [
    ("property_term", _wrong_property_term, "fwd-fwd-fwd"),
    ("property_curvature", _wrong_curvature, "fwd-fwd-rev"),
    ("property_curvature", _wrong_curvature, "rev-fwd-rev")])
def test_a_wrong_third_derivative_through_a_property_fails(monkeypatch, twin, wrong, mode):
    """What a property's second derivative compiles to when differentiated again
    (``property_term``: forward over forward; ``property_curvature``: over hvp), planted
    1% off: the third-order check fails, the second's passes."""
    from srcgrad.compiler import dispatch_properties

    monkeypatch.setattr(dispatch_properties.twins, twin, wrong)
    check(dataclass_property, 2, mode.split("-", 1)[1])
    with pytest.raises(AssertionError, match="finite differences"):
        check(dataclass_property, 3, mode)


def test_a_wrong_field_row_read_at_third_order_fails(monkeypatch):
    """``field_item_adjoint``'s transpose (a field read inside the getter, reverse mode
    three times) planted 1% off: the check fails."""
    program = namedtuple_property
    from srcgrad.rules import REGISTRY

    rule = REGISTRY.lookup(_sg.field_item_adjoint)
    monkeypatch.setitem(rule.adjoints, "v", "_sg.add_attr(_sg.zeros_like(v), name, "
                                            "1.01 * g, obj)")
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check(program, 3, "rev-rev-rev")
    finally:
        monkeypatch.undo()
        REGISTRY.changed()
