"""Calls resolved when they run (``srcgrad.runtime.dynamic``), differentiated at orders 2
and 3 in every composition of reverse and forward mode, against central finite
differences of the program itself: differentiated again, such a call is a call of the
user's callee's derivative one order higher, never of srcgrad's own source."""

import pytest

from tests.higher.dynamic_programs import (
    PROGRAMS,
    STRUCTURE_PROGRAMS,
    dataclass_property,
    loop_over_array,
    method_of_value,
)
from tests.rules.orders import ORDER_MODES, check_program

COMBOS = [(program, order, mode) for program in PROGRAMS
          for order, modes in ORDER_MODES.items() for mode in modes] + [
    (program, order, mode) for program in STRUCTURE_PROGRAMS
    for order, modes in ORDER_MODES.items() for mode in modes if "fwd" in mode]
# CI: every program at one composition of each order, rotating through the compositions.
SAMPLE = [(program, order, modes[i % len(modes)]) for i, program in enumerate(PROGRAMS)
          for order, modes in ORDER_MODES.items()] + [
    (program, 2, "fwd-fwd") for program in STRUCTURE_PROGRAMS[::3]] + [
    (program, 3, "rev-fwd-rev") for program in STRUCTURE_PROGRAMS[1::3]]


def _id(combo):
    program, order, mode = combo
    return f"{program.__name__}-order{order}-{mode}"


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_dynamic_calls_at_orders_two_and_three(combo):
    check_program(*combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_dynamic_call_in_every_composition(combo):
    check_program(*combo)


def _plant_method_owner(rule, monkeypatch):
    monkeypatch.setitem(rule.adjoints, "method", "1.01 * g")
    monkeypatch.setitem(rule.tangent, "method", "1.01 * method_dot")


def _plant_tangent_pairs(rule, monkeypatch):
    monkeypatch.setitem(rule.adjoints, "xs", "1.01 * _sg.pairs_cotangent(g, xs, 0)")


@pytest.mark.parametrize("helper, plant, program, mode", [
    ("method_owner", _plant_method_owner, method_of_value, "fwd-fwd-rev"),
    ("method_owner", _plant_method_owner, method_of_value, "rev-fwd-rev"),
    ("tangent_pairs", _plant_tangent_pairs, loop_over_array, "rev-fwd-rev")])
def test_a_wrong_row_around_dynamic_calls_fails(monkeypatch, helper, plant, program, mode):
    """A row these programs read only from the third order on, off by 1%: ``method_owner``
    (``x.reshape``'s derivative is ``x``'s, read where a derivative of
    ``dynamic_forward(x.reshape, ...)`` is differentiated again), ``tangent_pairs``'s
    transpose (reverse mode over a forward sweep's loop). The check fails."""
    from srcgrad import runtime
    from srcgrad.rules import REGISTRY

    plant(REGISTRY.lookup(getattr(runtime, helper)), monkeypatch)
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check_program(program, 3, mode)
    finally:
        monkeypatch.undo()
        REGISTRY.changed()


def test_a_property_differentiated_twice_and_three_times():
    """``d.norm2`` of a dataclass: its tangent's tangent through the object is the
    getter's second derivative (jvp of jvp, hvp), and the third is the getter's third
    (every composition: tests/higher/test_property_orders.py)."""
    for mode in ("fwd-fwd", "fwd-rev", "fwd-fwd-fwd"):
        check_program(dataclass_property, len(mode.split("-")), mode)
