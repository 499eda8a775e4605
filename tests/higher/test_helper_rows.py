"""The rows of runtime helpers, checked by calling each helper as a user would call a
NumPy function: orders 2 and 3 through every composition of srcgrad's transforms
(``tests.rules.orders``: forward over reverse, reverse over reverse, forward over
forward...) against finite differences of the helper itself, real and complex where the
helper is defined for complex input. A helper's rows are what generated code is
differentiated through, so a wrong one is a wrong second or third derivative.

``--rule-orders-full`` checks every (helper, argument, order, composition); CI checks each
helper at one of its rows and compositions, chosen by a fixed hash, and the planted wrong row
below shows that the check fails on an error at each order."""

import zlib

import numpy as np
import pytest

from srcgrad import runtime as rt
from srcgrad.rules import REGISTRY, load_optional_rows
from tests.higher.helper_rows import ROWS
from tests.rules.harness import row, scalar
from tests.rules.orders import ORDER_MODES, check_order, hash_sample

load_optional_rows()
COMBOS = [(row_, index, order, mode) for row_ in ROWS for index in row_.wrt
          for order, modes in ORDER_MODES.items() for mode in modes
          if order <= getattr(row_, "max_order", 3)]


def _id(combo):
    row_, index, order, mode = combo
    return f"{row_.label()}-arg{index}-order{order}-{mode}"


def _seed(row_):
    return zlib.crc32(row_.label().encode())


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_helper_row_at_orders_two_and_three(combo):
    row_, index, order, mode = combo
    check_order(row_, np.random.default_rng(_seed(row_)), index, order, mode)


# each helper (or public function) at one of its rows, arguments and compositions
SAMPLE = hash_sample(COMBOS, lambda c: c[0].name, _id)


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_helper_rows_at_orders_two_and_three(combo):
    row_, index, order, mode = combo
    check_order(row_, np.random.default_rng(_seed(row_)), index, order, mode)


def test_each_checked_helper_has_rows():
    helpers = {row_.name for row_ in ROWS if row_.name.startswith("srcgrad.")}
    assert helpers and all(REGISTRY.knows(getattr(rt, name.rsplit(".", 1)[-1])) for name in helpers)


@pytest.mark.parametrize("order, mode", [(2, "rev-rev"), (3, "fwd-fwd-rev")])
def test_a_planted_wrong_helper_row_fails(order, mode):
    """``scalar_digamma``'s partial off by 1%: every order above the first is wrong."""
    rule = REGISTRY.lookup(rt.scalar_digamma)
    saved = dict(rule.adjoints), dict(rule.tangent)
    rule.adjoints["x"] = "g * 1.01 * _sg.scalar_polygamma(1, x)"
    rule.tangent["x"] = "1.01 * _sg.scalar_polygamma(1, x)"
    try:   # (a function of its own: units compiled under the right row are not reused)
        planted = row("srcgrad.runtime.scalar_digamma", lambda x: rt.scalar_digamma(x) * 1.0,
                      scalar(0.3, 4.0))
        with pytest.raises(AssertionError, match="finite differences"):
            check_order(planted, np.random.default_rng(0), 0, order, mode)
    finally:
        rule.adjoints.clear()
        rule.adjoints.update(saved[0])
        rule.tangent.clear()
        rule.tangent.update(saved[1])
