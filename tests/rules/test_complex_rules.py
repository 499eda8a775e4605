"""Every rule row with complex inputs, against central finite differences in the real and
the imaginary direction (the convention and the oracle: ``tests.rules.complex_rows``).

CI checks a deterministic sample, each rule in both modes at one of its shape variants;
``pytest --complex-rows-full`` checks every (row, shape variant, mode).
"""

import zlib

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.rules import REGISTRY, load_optional_rows
from tests.rules import complex_rows as cr
from tests.rules.harness import FORWARD, REVERSE, normal, row, scalar
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
