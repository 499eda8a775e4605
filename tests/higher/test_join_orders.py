"""``np.r_[...]`` and ``np.c_[...]`` (joins of arrays, numbers, slices, directives) at
orders 1 to 3, real and complex, 0-d, size 1 and several elements, against central
finite differences: the compositions of ``tests.rules.orders`` and autograd's checker
(``srcgrad.testing.check_grads``: the vjp of a pullback called inside the function being
differentiated, and the jvp of a jvp, to the order asked).

A join is linear; each program applies ``sin`` after it so every order is nonzero. The
cotangent of the join's key (a tuple of items) differentiated again comes back as a list:
the join's tangent helper reads it by the key's structure (it read it as one item).

CI checks each (join, dtype) at one composition of each order (a fixed hash sample);
``--rule-orders-full`` every (join, dtype, shape, order, composition). A planted error in
the join's transpose row fails at second order.
"""

import zlib

import numpy as np
import pytest

from srcgrad.rules import REGISTRY
from srcgrad.testing import check_grads
from tests.rules import complex_rows as cr
from tests.rules.harness import REVERSE, In, row
from tests.rules.orders import ORDER_MODES, check_order, hash_sample

C2 = np.array([[0.5, -1.0], [2.0, 0.3], [-0.7, 1.1]])
C1 = np.linspace(-1.0, 1.0, 3)


def r_node_and_const(x):
    return np.sin(np.r_[x, C2])


def r_mixed(x):
    return np.sin(np.r_[x, C2, x])


def r_slicing(x):
    return np.sin(np.r_[x, C1, 1:4])


def r_numbers_and_directive(x):
    return np.sin(np.r_["0,2", x, 1.5 * x] * np.r_["0,2", C1, C1])


def c_mixed(x):
    return np.sin(np.c_[x, C2, x])


def c_of_vectors(x):
    return np.sin(np.c_[x, C1, 2.0 * x])


def drawn(*shape):
    def make(rng, kind=float):
        value = rng.standard_normal(shape)
        if kind is complex:
            value = value + 1j * rng.standard_normal(shape)
        return np.asarray(value)
    return In(make, label=f"N{shape}", complex_make=lambda rng: make(rng, complex))


# (program, the shapes it takes: several elements, size 1, 0-d where the join takes it)
JOINS = [(r_node_and_const, [(3, 2), (1, 2)]), (r_mixed, [(3, 2), (1, 2)]),
         (r_slicing, [(3,), (1,), ()]), (r_numbers_and_directive, [(3,)]),
         (c_mixed, [(3, 2), (3, 1)]), (c_of_vectors, [(3,)])]
ROWS = [row("numpy.r_[...] and numpy.c_[...]", fn, drawn(*shape),
            note=f"{fn.__name__}{shape}") for fn, shapes in JOINS for shape in shapes]
ORDERS = {1: ("check_grads",), 2: ORDER_MODES[2] + ("check_grads",),
          3: ORDER_MODES[3] + ("check_grads",)}
COMBOS = [(row_, kind, order, mode) for row_ in ROWS for kind in ("real", "complex")
          for order, modes in ORDERS.items() for mode in modes]


def _id(combo):
    row_, kind, order, mode = combo
    return f"{row_.note}-{kind}-order{order}-{mode}"


def _check(combo):
    row_, kind, order, mode = combo
    seed = zlib.crc32(_id(combo).encode())
    if mode == "check_grads":
        x = row_.inputs[0].make(np.random.default_rng(seed),
                                complex if kind == "complex" else float)
        for _ in range(2):      # called twice: a cached unit gives the same
            check_grads(row_.fn, modes=["fwd", "rev"], order=order)(x)
    elif kind == "real":
        check_order(row_, np.random.default_rng(seed), 0, order, mode)
    else:
        cr.check_order(cr.Case(row_, "row", REVERSE), 0, order, mode, "complex")


# autograd's checker at order 3 runs both modes twice over (~10 s): in the full matrix only
SAMPLE = hash_sample([c for c in COMBOS if c[2] < 3 or c[3] != "check_grads"],
                     lambda c: (c[0].fn.__name__, c[1], c[2]), _id)


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_a_sample_of_joins_at_orders_one_to_three(combo):
    _check(combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_join_at_orders_one_to_three(combo):
    _check(combo)


def test_the_autograd_programs_at_second_order():
    """autograd's own tests of np.r_ and np.c_ (test_numpy.py), by its checker."""
    for fn, shape in [(r_node_and_const, (3, 2)), (r_mixed, (3, 2)), (r_slicing, (3,)),
                      (c_mixed, (3, 2))]:
        x = np.random.default_rng(0).standard_normal(shape)
        check_grads(fn, modes=["fwd", "rev"], order=2)(x)


@pytest.mark.parametrize("mode", ["rev-rev", "check_grads"])
def test_a_wrong_transpose_row_fails(monkeypatch, mode):
    """The transpose row of the join's tangent helper (read when the join's adjoint is
    differentiated again) off by 1%: the check fails."""
    import srcgrad.runtime as rt

    rule = REGISTRY.lookup(rt.concat_items_adjoint)
    monkeypatch.setitem(rule.adjoints, "v", f"1.01 * ({rule.adjoints['v']})")
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences|is wrong"):
            _check((ROWS[0], "real", 2, mode))
    finally:
        monkeypatch.undo()
        REGISTRY.changed()
