"""Every rule row with complex inputs, against central finite differences in the real and
the imaginary direction (the convention and the oracle: ``tests.rules.complex_rows``), at
first order in both modes and at second order through the compositions of
``tests.rules.orders``.

CI checks a deterministic sample: each rule in both modes at one of its shape variants,
and a few rows at order 2; ``pytest --complex-rows-full`` checks every (row, shape
variant, mode) and every row at order 2 in every composition.
"""

import zlib

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.rules import REGISTRY, load_optional_rows
from tests.rules import complex_rows as cr
from tests.rules.harness import FORWARD, REVERSE, In, normal, row, scalar
from tests.rules.orders import ORDER_MODES
from tests.rules.rows import ROWS

load_optional_rows()
ALL_ROWS = ROWS + cr.EXTRA_ROWS
CASES = cr.cases(ALL_ROWS)


def _sample(cases):
    """One case per (rule, mode), chosen by a hash of its label: every rule is checked in
    CI in both modes, at a shape variant that changes only when the rows do."""
    chosen = {}
    for case in cases:
        key = (case.row.name, case.mode)
        if key not in chosen or zlib.crc32(case.label().encode()) < \
                zlib.crc32(chosen[key].label().encode()):
            chosen[key] = case
    return list(chosen.values())


SAMPLE = _sample(CASES)


@pytest.mark.parametrize("case", SAMPLE, ids=[c.label() for c in SAMPLE])
def test_complex_row_sample_matches_finite_differences(case):
    cr.check(case)


@pytest.mark.complex_rows_full
@pytest.mark.parametrize("case", CASES, ids=[c.label() for c in CASES])
def test_complex_row_matches_finite_differences(case):
    cr.check(case)


# -- order 2 ---------------------------------------------------------------------------
def _point(z):
    """A fixed complex argument (the real rows draw nothing: complex rows only)."""
    return In(lambda rng: z, label=f"{z}", draw=None, complex_make=lambda rng: z)


# Second derivatives that were wrong with complex input (reverse over forward at
# 1.1+1.2j; np.prod forward over forward dropped the imaginary part of its helper's input;
# a complex power's exponent partial took no log off the positive reals).
SECOND_ORDER_ROWS = [
    row("numpy.absolute", lambda z: np.abs(z), _point(1.1 + 1.2j), note="at 1.1+1.2j"),
    row("numpy.angle", lambda z: np.angle(z), _point(1.1 + 1.2j), note="at 1.1+1.2j"),
    row("numpy.prod", lambda a: np.prod(a), normal(2, 3), note="all", modes=(REVERSE,)),
    row("numpy.power", lambda y: np.power(np.array([0.7 - 0.2j, -1.3 + 0.4j]), y), normal(2),
        note="complex base, exponent"),
    row("numpy.power", lambda x: x ** np.array([0.3 + 0.5j, 2.0]), normal(2),
        note="complex exponent, base"),
]
ORDER2 = [(case, index, mode, direction)
          for case in cr.cases(ALL_ROWS + SECOND_ORDER_ROWS)
          if case.variant == "row" and case.mode == REVERSE
          for index in case.row.wrt for mode in ORDER_MODES[2] + ("rev-fwd",)
          for direction in ("imaginary", "complex")]


def _order2_id(combo):
    case, index, mode, direction = combo
    return f"{case.row.label()}-arg{index}-{mode}-{direction}"


_ELEMENTWISE = {name for name, rule in REGISTRY.rows().items() if rule.elementwise}
ORDER2_SAMPLE = [c for c in ORDER2 if c[0].row in SECOND_ORDER_ROWS] + sorted(
    (c for c in ORDER2 if c[0].row.name in _ELEMENTWISE),
    key=lambda c: zlib.crc32(_order2_id(c).encode()))[:6]


@pytest.mark.parametrize("combo", ORDER2_SAMPLE, ids=[_order2_id(c) for c in ORDER2_SAMPLE])
def test_complex_rows_at_order_two(combo):
    case, index, mode, direction = combo
    cr.check_order(case, index, 2, mode, direction)


@pytest.mark.complex_rows_full
@pytest.mark.parametrize("combo", ORDER2, ids=[_order2_id(c) for c in ORDER2])
def test_every_complex_row_at_order_two(combo):
    """Wrong numbers fail. An error (a refusal, or a runtime helper that higher order
    cannot go through yet: the same for real input) is reported as an expected failure
    with its message (``-rx`` lists them)."""
    case, index, mode, direction = combo
    try:
        cr.check_order(case, index, 2, mode, direction)
    except AssertionError:
        raise
    except Exception as error:
        pytest.xfail(f"{type(error).__name__}: {str(error).splitlines()[0]}")


def test_every_row_is_checked_complex_or_says_why_not():
    assert not cr.undeclared(ALL_ROWS), (
        "rows with a domain that has no complex form: give the In a complex_make, or "
        "say why the row is real only in tests.rules.complex_rows.REAL_ONLY_ROWS")
    names = {r.name for r in ALL_ROWS}
    assert not set(cr.REAL_ONLY) - names, "REAL_ONLY names a rule no row tests"
    assert not set(cr.REAL_ONLY_ROWS) - {r.label() for r in ALL_ROWS}


RAISING = [r for r in ALL_ROWS if cr.real_only(r) == cr.RAISES
           and all(s.draw is not None or not s.diff for s in r.inputs)]


@pytest.mark.parametrize("row_", RAISING, ids=[r.label() for r in RAISING])
def test_rows_left_out_as_raising_do_raise_for_complex_input(row_):
    """The exclusion list cannot hide a function that is defined for complex input."""
    case = cr.Case(row_, "row", REVERSE)
    args = case.sample(np.random.default_rng(0))
    with pytest.raises((TypeError, ValueError, NotImplementedError)):
        row_.fn(*args)


# -- planted wrong rules: the check must catch each kind of complex error ------------------
def squared_modulus(z):
    return np.real(z * np.conj(z))


def holomorphic_exp(z):
    return np.exp(z)


# The same functions under their right rules (other functions: a derivative compiled under
# one rule is not recompiled when a test swaps the rule).
def squared_modulus_control(z):
    return np.real(z * np.conj(z))


def holomorphic_exp_control(z):
    return np.exp(z)


PLANTS = {
    # reverse: the gradient's conjugate (d|z|^2 is 2 conj(z) dz in this convention)
    "conjugated gradient": (squared_modulus, REVERSE, dict(
        z="g * 2 * z", tangent={"z": "2 * np.real(np.conj(z) * z_dot)"}), "imaginary direction"),
    # forward: a tangent that is conjugate-linear in the direction
    "conjugate-linear tangent": (holomorphic_exp, FORWARD, dict(
        z="g * ans", tangent={"z": "ans * np.conj(z_dot)"}), "imaginary direction"),
    # forward: a real output's tangent with an imaginary part (np.real forgotten)
    "complex tangent of a real output": (squared_modulus, FORWARD, dict(
        z="g * 2 * np.conj(z)", tangent={"z": "2 * np.conj(z) * z_dot"}), "complex tangent"),
    # a partial written for reals that drops the imaginary part
    "real-only partial": (holomorphic_exp, REVERSE, dict(
        z="g * np.real(ans)", tangent={"z": "np.real(ans) * z_dot"}), "direction"),
}
RIGHT = {
    squared_modulus: (squared_modulus_control, dict(
        z="g * 2 * np.conj(z)", tangent={"z": "2 * np.real(np.conj(z) * z_dot)"})),
    holomorphic_exp: (holomorphic_exp_control, dict(
        z="g * ans", tangent={"z": "ans * z_dot"})),
}


def _check_with_rule(func, templates, mode, spec):
    """``cr.check`` of a fresh row calling ``func`` under the rule ``templates``."""
    sg.defrule(func, "z", **templates)
    try:
        cr.check(cr.Case(row(f"planted.{func.__name__}", lambda z: func(z), spec), "row", mode))
    finally:
        REGISTRY._rules.pop(func, None)
        REGISTRY._by_name.pop(f"{__name__}.{func.__name__}", None)


@pytest.mark.parametrize("plant", sorted(PLANTS))
@pytest.mark.parametrize("spec", [normal(3), scalar()], ids=["array", "Python complex"])
def test_the_complex_check_catches_a_planted_wrong_rule(plant, spec):
    func, mode, templates, caught_by = PLANTS[plant]
    with pytest.raises(AssertionError, match=caught_by):
        _check_with_rule(func, templates, mode, spec)
    _check_with_rule(*RIGHT[func], mode, spec)    # the same check passes the right rule
