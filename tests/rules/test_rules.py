"""Every rule-table row, checked against central finite differences."""

import zlib

import numpy as np
import pytest

from srcgrad.rules import REGISTRY, load_optional_rows
from tests.rules.harness import BOTH, CHECKED_MODES, CHECKS, check_transposes
from tests.rules.rows import ROWS

load_optional_rows()   # SciPy's rows are registered on first need; test them all

def _seed(row_):
    """The same inputs for a row in every process (``hash`` of a str is salted per process,
    so a row could meet an input on which finite differences are too coarse only sometimes)."""
    return zlib.crc32(row_.label().encode())


CASES = [pytest.param(r, mode) for r in ROWS for mode in r.modes if mode in CHECKED_MODES]


@pytest.mark.parametrize("row_, mode", CASES,
                         ids=[f"{c.values[0].label()}-{c.values[1]}" for c in CASES])
def test_row_matches_finite_differences(row_, mode):
    CHECKS[mode](row_, np.random.default_rng(_seed(row_)))


BOTH_MODES = [r for r in ROWS if set(BOTH) <= set(r.modes)]


@pytest.mark.parametrize("row_", BOTH_MODES, ids=[r.label() for r in BOTH_MODES])
def test_forward_and_reverse_rows_are_transposes(row_):
    """``<W, J v>`` from the forward rule equals ``<J^T W, v>`` from the reverse rule."""
    check_transposes(row_, np.random.default_rng(_seed(row_)))


def library_rules():
    """Rows for user-facing functions (rows for srcgrad's own runtime helpers, which only
    generated code calls, are tested with higher-order derivatives instead)."""
    return {name for name in REGISTRY.rows() if not name.startswith("srcgrad.")}


def test_every_registered_rule_has_a_test_row():
    tested = {r.name for r in ROWS}
    missing = sorted(library_rules() - tested)
    assert not missing, f"rule rows without a test row in tests/rules: {missing}"


def test_every_test_row_names_a_registered_rule():
    unknown = sorted({r.name for r in ROWS} - set(REGISTRY.rows()))
    assert not unknown, f"test rows naming no registered rule: {unknown}"
