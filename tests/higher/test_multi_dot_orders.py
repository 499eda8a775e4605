"""Second and third derivatives through ``np.linalg.multi_dot``, whose helpers are rows
(``srcgrad.rules.runtime_multi_dot_rules``): chains of 2 to 4 arrays, 1-D first and last
arrays, real and complex, each array differentiated, in every composition of
``tests.rules.orders`` against central finite differences of the plain function.

CI checks a deterministic sample (each program and dtype at one composition of order 2
and one of order 3); ``--rule-orders-full`` checks every combination. A planted wrong row
of ``multi_dot_adjoint_tangent`` (read only above first order) is caught.
"""

import zlib

import numpy as np
import pytest

from srcgrad.rules import REGISTRY
from tests.rules import complex_rows as cr
from tests.rules.harness import REVERSE, normal, row
from tests.rules.orders import ORDER_MODES, check_order, hash_sample

la = np.linalg


def two(a, b):
    return la.multi_dot([a, b])


def two_vectors(a, b):
    return la.multi_dot([a, b]) ** 2


def three(a, b, c):
    return np.sin(la.multi_dot([a, b, c]))


def four(a, b, c, d):
    return la.multi_dot([a, b, c, d])


ROWS = [
    row("numpy.linalg.multi_dot", two, normal(2, 3), normal(3, 2), note="two"),
    row("numpy.linalg.multi_dot", two_vectors, normal(3), normal(3), note="two 1-D"),
    row("numpy.linalg.multi_dot", three, normal(3), normal(3, 4), normal(4, 2),
        note="three, 1-D first"),
    row("numpy.linalg.multi_dot", four, normal(2, 3), normal(3, 2), normal(2, 2), normal(2),
        note="four, 1-D last"),
]
COMBOS = [(row_, index, kind, order, mode) for row_ in ROWS for index in row_.wrt
          for kind in ("real", "complex")
          for order, modes in ORDER_MODES.items() for mode in modes]


def _id(combo):
    row_, index, kind, order, mode = combo
    return f"{row_.label()}-arg{index}-{kind}-order{order}-{mode}"


def _run(combo):
    row_, index, kind, order, mode = combo
    if kind == "real":
        check_order(row_, np.random.default_rng(zlib.crc32(_id(combo).encode())), index,
                    order, mode)
    else:
        cr.check_order(cr.Case(row_, "row", REVERSE), index, order, mode, "complex")


# each program and dtype at one composition of order 2 and one of order 3, on one argument
SAMPLE = hash_sample(COMBOS, lambda c: (c[0].label(), c[2], c[3]), _id)


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_a_sample_of_chains_at_orders_two_and_three(combo):
    _run(combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_chain_at_orders_two_and_three(combo):
    _run(combo)


def test_multi_dot_helpers_are_rows():
    from srcgrad import runtime

    for name in ("multi_dot_adjoint", "multi_dot_tangent"):
        assert REGISTRY.lookup(getattr(runtime, name)) is not None


def _planted(a, b, c):
    return np.sin(la.multi_dot([a, b, b, c]))   # (item i's cotangent reads b: the other b)


@pytest.mark.parametrize("order, mode", [(2, "rev-rev"), (2, "fwd-rev"), (3, "rev-rev-rev"),
                                         (3, "fwd-fwd-rev")])
def test_a_wrong_multi_dot_row_fails(monkeypatch, order, mode):
    """``multi_dot_adjoint``'s partial in ``arrays`` off by 1% (both modes' templates,
    through its cotangent ``v``): read only from the second order on."""
    from srcgrad import runtime

    rule = REGISTRY.lookup(runtime.multi_dot_adjoint)
    wrong = "_sg.multi_dot_adjoint_tangent(1.01 * v, {}, arrays)"   # linear in v
    assert rule.adjoints["arrays"] == wrong.replace("1.01 * v", "v").format("g")
    monkeypatch.setitem(rule.adjoints, "arrays", wrong.format("g"))
    monkeypatch.setitem(rule.tangent, "arrays", wrong.format("arrays_dot"))
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check_order(row("planted.multi_dot", _planted, normal(2, 3), normal(3, 3),
                            normal(3, 2)), np.random.default_rng(4), 1, order, mode)
    finally:
        monkeypatch.undo()
        REGISTRY.changed()
