"""A NamedTuple's fields read by name (``r.S``) and by position (``r[1]``) in one
function, differentiated two and three times in every composition of
``tests.rules.orders``, against central finite differences of the plain function.

The sparse cotangent of a NamedTuple holds a field at its name, at its position or both
(``restructure`` and ``field_cotangent`` add them). Differentiated again, each key is a
value of its own, and the transposes of those reads give every key the field's whole
cotangent: reverse over reverse gave a wrong number where one function read a field
both ways (its name's key got the cotangent, its position's none).
(The fields of NumPy's own results, ``np.linalg.svd(a).S``, read by name and
differentiated three times through reverse mode, are in ``test_linalg_orders``.)
"""

from typing import NamedTuple

import numpy as np
import pytest

from srcgrad import runtime
from srcgrad.rules import REGISTRY
from tests.rules.harness import normal, row
from tests.rules.orders import ORDER_MODES, check_order


class Pair(NamedTuple):
    a: np.ndarray
    b: np.ndarray


def make_pair(x):
    return Pair(np.sin(x), x * x)


def callee_both_ways(x):
    p = make_pair(x)
    return p.a * p[1] + p.b ** 2 + p[0] ** 3


def inline_both_ways(x):
    p = Pair(np.cos(x), x * x)
    return p.a * p[1] + p.b


def by_name_only(x):
    p = make_pair(x)
    return p.a * p.b + p.b ** 2


def fields_of_a_sum(x):
    p = make_pair(x)
    q = Pair(p[0] + p.b, p.a * x)
    return q.a * q[1]


PROGRAMS = [
    row("NamedTuple[callee]", callee_both_ways, normal(3)),
    row("NamedTuple[inline]", inline_both_ways, normal(3)),
    row("NamedTuple[by name]", by_name_only, normal(3)),
    row("NamedTuple[of fields]", fields_of_a_sum, normal(2, 3)),
]
COMBOS = [(p, order, mode) for p in PROGRAMS for order, modes in ORDER_MODES.items()
          for mode in modes]


@pytest.mark.parametrize("program, order, mode", COMBOS,
                         ids=[f"{p.label()}-order{o}-{m}" for p, o, m in COMBOS])
def test_fields_read_both_ways_at_orders_two_and_three(program, order, mode):
    check_order(program, np.random.default_rng(order * 7 + len(mode)), 0, order, mode)


def test_a_transpose_that_fills_one_key_fails(monkeypatch):
    """Planted: the transpose of ``field_cotangent`` as it was (the cotangent at the
    field's name only) gives reverse over reverse a wrong number."""
    rule = REGISTRY.lookup(runtime.field_cotangent)
    param = rule.params[0]
    monkeypatch.setitem(rule.adjoints, param, "_sg.attr_cotangent(g, name)")
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check_order(PROGRAMS[0], np.random.default_rng(1), 0, 2, "rev-rev")
    finally:
        monkeypatch.undo()
        REGISTRY.changed()
