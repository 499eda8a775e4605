"""Every rule-table row, checked against central finite differences."""

import numpy as np
import pytest

from srcgrad.rules import REGISTRY, load_optional_rows
from tests.rules.harness import CHECKED_MODES, CHECKS, FORWARD
from tests.rules.rows import ROWS

load_optional_rows()   # SciPy's rows are registered on first need; test them all

# Rows whose forward rule is missing or wrong today: expected to fail, and strictly so (a
# row that starts passing must leave this list). New rows never join it.
FORWARD_GAPS = {
    'numpy.interp[fp]',
    'numpy.interp[x]',
    'numpy.interp[xp]',
    'numpy.median[distinct(5,)]',
    'numpy.median[even, keepdims]',
    'numpy.quantile[distinct(5, 2)]',
    'numpy.percentile[distinct(2, 6)]',
    'numpy.percentile[flat]',
    'numpy.linalg.pinv[N(4, 3)]',
    'numpy.linalg.pinv[wide]',
    'numpy.linalg.norm[N(2, 3)]',
    'numpy.linalg.norm[p=3]',
    'numpy.linalg.norm[p=1]',
    'numpy.linalg.norm[inf]',
    'numpy.linalg.norm[fro]',
    'numpy.linalg.norm[nuc]',
    'numpy.linalg.norm[spectral]',
    'numpy.linalg.matrix_power[N(3, 3)]',
    'numpy.linalg.matrix_power[negative]',
    'numpy.linalg.multi_dot[N(3,),N(3, 4),N(4, 2)]',
    'numpy.linalg.eigh[spd(3, 3)]',
    'numpy.linalg.eigh[vectors]',
    'numpy.linalg.eigh[upper, batched]',
    'numpy.linalg.eigvalsh[spd(3, 3)]',
    'numpy.linalg.eig[real spectrum]',
    'numpy.linalg.eig[vectors]',
    'numpy.linalg.eigvals[spd(3, 3)]',
    'numpy.linalg.svd[N(3, 2)]',
    'numpy.linalg.svd[u, tall]',
    'numpy.linalg.svd[vh, wide]',
    'numpy.linalg.svd[s, square]',
    'numpy.linalg.svdvals[N(2, 3)]',
    'numpy.linalg.qr[N(4, 3)]',
    'numpy.linalg.qr[r, square]',
    'numpy.linalg.lstsq[N(5, 3),N(5,)]',
    'numpy.linalg.lstsq[residuals]',
}


def _case(row_, mode):
    if mode == FORWARD and row_.label() in FORWARD_GAPS:
        return pytest.param(row_, mode, marks=pytest.mark.xfail(
            strict=True, reason="forward rule missing or wrong"))
    return pytest.param(row_, mode)


CASES = [_case(r, mode) for r in ROWS for mode in r.modes if mode in CHECKED_MODES]


@pytest.mark.parametrize("row_, mode", CASES,
                         ids=[f"{c.values[0].label()}-{c.values[1]}" for c in CASES])
def test_row_matches_finite_differences(row_, mode):
    CHECKS[mode](row_, np.random.default_rng(abs(hash(row_.label())) % 2**32))


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
