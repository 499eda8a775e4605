"""``np.einsum``, ``np.tensordot`` and the other products (``tests.rules.product_forms``)
at orders 1 to 3, through every composition of forward and reverse mode
(``tests.rules.orders.ALL_COMPOSITIONS``), with real, complex and mixed operands, against
central finite differences of the plain function.

Each form is differentiated in all its operands at once, along random directions:
``t -> Re <W, f(a + t u, b + w t, ...)>`` (``L`` below). Its k-th derivative holds every
mixed partial of order k, which is what a product's higher derivatives consist of (a
product is linear in each operand alone, so its second derivative in one operand is
zero), and every operand's own partial (the first-order rows are checked operand by
operand in ``test_rules``).

CI checks a deterministic sample (every composition once, ``hash_sample``);
``--rule-orders-full`` (marker ``rule_orders_full``) checks every combination. A planted
wrong transpose of ``einsum_partial`` (read only by reverse mode over reverse mode) fails
at orders 2 and 3.
"""

import zlib

import numpy as np
import pytest

from srcgrad.rules import REGISTRY
from tests.rules.harness import random_like
from tests.rules.orders import (
    ALL_COMPOSITIONS,
    composed,
    finite_difference,
    make_loss,
    pair,
    precision,
)
from tests.rules.product_forms import FORMS, Form

KINDS = ("real", "complex", "mixed")   # mixed: the first operand real, the others complex


def _draw(rng, shape, complex_):
    x = rng.standard_normal(shape)
    return x + 0.5j * rng.standard_normal(shape) if complex_ else x


def _combos():
    for form in FORMS:
        kinds = KINDS if len(form.shapes) > 1 else KINDS[:2]
        for kind in kinds:
            for order, modes in ALL_COMPOSITIONS.items():
                for mode in modes:
                    yield form, kind, "joint", order, mode


COMBOS = list(_combos())


def _id(combo):
    form, kind, _, order, mode = combo
    return f"{form.label()}-{kind}-{mode}"


def _joint(fn, args, directions, w):
    """``t -> Re <W, fn(a + t u, ...)>`` (a fresh closure for every check)."""
    if len(args) == 1:
        def loss(t):
            return pair(w, fn(args[0] + t * directions[0]))
    elif len(args) == 2:
        def loss(t):
            return pair(w, fn(args[0] + t * directions[0], args[1] + t * directions[1]))
    else:
        def loss(t):
            return pair(w, fn(args[0] + t * directions[0], args[1] + t * directions[1],
                              args[2] + t * directions[2]))
    return loss


def check(combo):
    form, kind, wrt, order, mode = combo
    rng = np.random.default_rng(zlib.crc32(_id(combo).encode()))
    args = [_draw(rng, shape, kind == "complex" or (kind == "mixed" and i > 0))
            for i, shape in enumerate(form.shapes)]
    value = form.fn(*args)
    w = random_like(value, rng)
    directions = [random_like(a, rng) for a in args]
    if wrt == "joint":
        x, v = 0.0, 1.0
        losses = [_joint(form.fn, args, directions, w) for _ in range(2)]
    else:
        x, v = args[wrt], directions[wrt]
        losses = [make_loss(form.fn, args, wrt, w) for _ in range(2)]
    numeric, rounding = finite_difference(losses[0], x, v, order, precision(value))
    analytic = float(np.real(composed(losses[1], x, v, mode)))
    tol = 1e-4 * max(abs(numeric), abs(analytic)) + 1e-6 + rounding
    assert abs(numeric - analytic) <= tol, (
        f"{form.label()} ({kind}, argument {wrt}), order {order} ({mode}): finite "
        f"differences {numeric!r}, srcgrad {analytic!r}")


def _sample():
    """Every composition once on einsum, and reverse over reverse once more on tensordot:
    the combination of smallest CRC-32 among complex and mixed operands."""
    picked = {}
    for combo in sorted(COMBOS, key=lambda c: -zlib.crc32(_id(c).encode())):
        family, mode = combo[0].name.split()[0], combo[4]
        if combo[1] != "real" and (family == "einsum" or (
                family == "tensordot" and mode.count("rev") >= 2 and "fwd" not in mode)):
            picked[family, mode] = combo
    return sorted(picked.values(), key=lambda c: (c[3], c[4], c[0].name))


SAMPLE = _sample()


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_a_sample_of_products_at_orders_one_to_three(combo):
    check(combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_product_at_orders_one_to_three(combo):
    check(combo)


def _planted_einsum(a, b, c):
    return np.einsum("ij,jk,kl->il", a, b, c)


@pytest.mark.parametrize("mode", ["rev-rev", "rev-fwd-rev", "rev-rev-rev"])
def test_a_wrong_einsum_partial_transpose_fails(monkeypatch, mode):
    """``einsum_partial``'s transposes off by 1%: reverse mode over a reverse sweep reads
    them (orders 2 and 3), and the check fails."""
    from srcgrad import runtime

    rule = REGISTRY.lookup(runtime.einsum_partial)
    for slot, template in list(rule.adjoints.items()):
        monkeypatch.setitem(rule.adjoints, slot, f"1.01 * {template}")
    REGISTRY.changed()
    try:
        form = Form("planted einsum", _planted_einsum, ((2, 3), (3, 2), (2, 2)))
        with pytest.raises(AssertionError, match="finite differences"):
            check((form, "complex", "joint", len(mode.split("-")), mode))
    finally:
        monkeypatch.undo()
        REGISTRY.changed()


def test_einsum_partial_is_a_row_closed_under_differentiation():
    """Every template of ``einsum_partial``'s row calls ``einsum_partial`` again (with a
    swapped ``spec`` in reverse), so every order stays inside the row."""
    from srcgrad import runtime

    rule = REGISTRY.lookup(runtime.einsum_partial)
    templates = list(rule.adjoints.values()) + list(rule.tangent.values())
    assert len(templates) == 16 and all(t.startswith("_sg.einsum_partial(") for t in templates)


@pytest.mark.parametrize("order", [1, 2, 3])
def test_a_real_operand_has_a_real_gradient_at_every_order(order):
    """``einsum('ij,jk->ik', a, z)`` with ``a`` real and ``z`` complex: the gradient in
    ``a`` (of the gradient ...) is real, and right (finite differences along ``a``)."""
    import srcgrad as sg

    rng = np.random.default_rng(order)
    a, z = rng.standard_normal((2, 3)), _draw(rng, (3, 4), True)
    w, v = _draw(rng, (2, 4), True), rng.standard_normal((2, 3))

    def loss(x):
        return pair(w, np.einsum("ij,jk->ik", x ** 2, z))
    inner = loss
    for _ in range(order - 1):
        inner = _along(inner, v)
    gradient = sg.grad(inner)(a)
    assert gradient.dtype == np.float64
    numeric, rounding = finite_difference(loss, a, v, order)
    assert abs(numeric - pair(gradient, v)) <= 1e-4 * abs(numeric) + 1e-6 + rounding


def _along(fn, v):
    import srcgrad as sg

    gradient = sg.grad(fn)

    def along(y):
        return pair(gradient(y), v)
    return along
