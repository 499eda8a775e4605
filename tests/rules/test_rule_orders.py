"""Orders 2 and 3 of the rule rows, through every composition of srcgrad's transforms
(``tests.rules.orders``), against finite differences of the plain NumPy function.

The full matrix (every row x differentiated argument x order x composition) runs with
``--rule-orders-full`` (marker ``rule_orders_full``); CI runs a deterministic sample, and
the planted wrong rules below show the check fails on an error at each order."""

import zlib

import numpy as np
import pytest

from srcgrad.errors import MissingRuleError
from srcgrad.rules import REGISTRY, load_optional_rows
from tests.rules.harness import normal, row
from tests.rules.orders import ORDER_MODES, check_order
from tests.rules.rows import ROWS
from tests.rules.rows_elementwise import ROWS as ELEMENTWISE

load_optional_rows()
COMBOS = [(row_, index, order, mode) for row_ in ROWS for index in row_.wrt
          for order, modes in ORDER_MODES.items() for mode in modes]


# Rows whose second and higher derivatives are refused (a MissingRuleError naming what is
# missing, never a wrong number or a raw NotImplementedError): none now.
REFUSED_ABOVE_FIRST: set[str] = set()


def check_or_refused(row_, rng, index, order, mode):
    if row_.label() in REFUSED_ABOVE_FIRST:
        with pytest.raises(MissingRuleError, match="not supported yet"):
            check_order(row_, rng, index, order, mode)
    else:
        check_order(row_, rng, index, order, mode)


def _seed(row_):
    return zlib.crc32(row_.label().encode())


def _id(combo):
    row_, index, order, mode = combo
    return f"{row_.label()}-arg{index}-order{order}-{mode}"


def _sample(count=12):
    """Every composition once, on rows drawn by a fixed hash (the same in every run)."""
    picked = []
    for order, modes in ORDER_MODES.items():
        for mode in modes:
            rows = sorted(ELEMENTWISE, key=lambda r: zlib.crc32(f"{r.label()}{mode}".encode()))
            picked.append((rows[0], rows[0].wrt[0], order, mode))
    return picked[:count]


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_row_at_orders_two_and_three(combo):
    row_, index, order, mode = combo
    check_or_refused(row_, np.random.default_rng(_seed(row_)), index, order, mode)


SAMPLE = [pytest.param(c, id=_id(c)) for c in _sample()]


@pytest.mark.parametrize("combo", SAMPLE)
def test_a_sample_of_rows_at_orders_two_and_three(combo):
    row_, index, order, mode = combo
    check_order(row_, np.random.default_rng(_seed(row_)), index, order, mode)


def _planted_tanh(x):
    return np.tanh(x)


def _planted_sin(x):
    return np.sin(x)


# Rows of their own for the planted checks: what is generated while a row is wrong stays
# cached on these functions only (never on the table's rows, which other tests use).
_PLANTED_ROWS = {"numpy.tanh": row("numpy.tanh", _planted_tanh, normal(3)),
                 "numpy.sin": row("numpy.sin", _planted_sin, normal(3, 4))}


def _row(name):
    return _PLANTED_ROWS[name]


@pytest.fixture
def planted(monkeypatch):
    """Plant a wrong derivative in one row (both modes' templates); the table's generation
    moves on both ways, so no code generated with the wrong row outlives the test."""
    def plant(func, partial):
        rule = REGISTRY.lookup(func)
        param = rule.params[0]
        monkeypatch.setitem(rule.adjoints, param, f"g * ({partial})")
        monkeypatch.setattr(rule, "tangent", {param: partial})
        REGISTRY.changed()
    yield plant
    monkeypatch.undo()
    REGISTRY.changed()


COMPOSITIONS = [pytest.param(order, mode, id=f"{order}-{mode}")
                for order, modes in ORDER_MODES.items() for mode in modes]


@pytest.mark.parametrize("order, mode", [(2, "fwd-rev"), (3, "fwd-fwd-rev")])
def test_a_wrong_first_derivative_fails_at_every_order(planted, order, mode):
    planted(np.tanh, "1.01 - ans ** 2")   # off by 0.01
    with pytest.raises(AssertionError, match="finite differences"):
        check_order(_row("numpy.tanh"), np.random.default_rng(1), 0, order, mode)


@pytest.mark.parametrize("order, mode", COMPOSITIONS)
def test_a_wrong_rule_seen_only_above_first_order_fails(planted, order, mode):
    """``np.cos``'s row is used only by the derivative of ``np.sin``: a wrong one leaves
    ``sin``'s gradient right and every higher derivative wrong."""
    planted(np.cos, "-np.sin(x) * 1.01")
    with pytest.raises(AssertionError, match="finite differences"):
        check_order(_row("numpy.sin"), np.random.default_rng(1), 0, order, mode)


def _planted_var(x):
    return np.var(np.exp(x), axis=0)   # (through exp: the third derivative reads it too)


@pytest.mark.parametrize("order, mode", [(2, "fwd-rev"), (2, "rev-rev"), (3, "fwd-fwd-rev"),
                                         (3, "rev-rev-rev")])
def test_a_wrong_runtime_helper_row_fails(monkeypatch, order, mode):
    """The rows of the runtime's own helpers are checked the same way: ``var_adjoint``'s
    partial in ``a`` (read only from the second order on) off by 1%."""
    from srcgrad import runtime

    rule = REGISTRY.lookup(runtime.var_adjoint)
    monkeypatch.setitem(rule.adjoints, "a", f"1.01 * ({rule.adjoints['a']})")
    monkeypatch.setitem(rule.tangent, "a", f"1.01 * ({rule.tangent['a']})")
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check_order(row("numpy.var", _planted_var, normal(3, 2)),
                        np.random.default_rng(2), 0, order, mode)
    finally:
        monkeypatch.undo()
        REGISTRY.changed()
