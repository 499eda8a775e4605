"""Orders 2 and 3 through ``scipy.linalg``'s rows, whose derivatives are written in rows
only (the solves call SciPy again through runtime twins with the same rows; the linear
maps between them have rows whose transposes are each other).

The oracle is a central difference of the plain SciPy function along a direction
(``tests.rules.orders``; complex arguments along a general complex direction,
``tests.rules.complex_rows``), never srcgrad against itself. CI runs one composition per
function; ``--rule-orders-full`` runs every row, argument and composition at order 3
with complex input (real input at orders 2 and 3 is ``test_rule_orders``'s full matrix).
"""

import zlib

import numpy as np
import pytest

import srcgrad.runtime as rt
from srcgrad import syntax
from srcgrad.rules import REGISTRY, load_optional_rows
from tests.rules import complex_rows as cr
from tests.rules.harness import normal, row, spd, wellcond
from tests.rules.orders import ORDER_MODES, check_order
from tests.rules.rows_scipy_linalg import ROWS

sl = pytest.importorskip("scipy.linalg")
load_optional_rows()
BY_LABEL = {r.label(): r for r in ROWS}


def _rng(label):
    return np.random.default_rng(zlib.crc32(label.encode()))


# -- the linear pieces: each row's template is the transpose of its map ----------------
def _evaluate(template, **values):
    code = compile(syntax.to_source(syntax.quote_expr(template)), "<row>", "eval")
    return eval(code, {"np": np, "_sg": rt}, values)


def _pair(a, b):
    return float(np.sum(np.real(np.asarray(a) * np.asarray(b))))


def _c(rng, *shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


# helper, its keyword arguments but the linear one, the linear parameter, its shape
PIECES = [
    (rt.triangle_read, dict(lower=True, unit_diagonal=False), "m", (3, 3)),
    (rt.triangle_read, dict(lower=False, unit_diagonal=True), "m", (2, 3, 3)),
    (rt.op_of, dict(trans="C"), "m", (3, 3)),
    (rt.op_of, dict(trans=1), "m", (3, 3)),
    (rt.op_of, dict(trans=True), "m", (3, 3)),
    (rt.conj_if, dict(flag=True), "v", (3,)),
    (rt.hermitian_sum, {}, "m", (3, 3)),
    (rt.read_cotangent, dict(assume_a="her", lower=True), "m", (3, 3)),
    (rt.read_cotangent, dict(assume_a="sym", lower=False), "m", (3, 3)),
    (rt.read_tangent, dict(assume_a="pos", lower=False), "m", (3, 3)),
    (rt.read_tangent, dict(assume_a="gen", lower=False), "m", (3, 3)),
    (rt.upper_right, {}, "m", (4, 4)),
    (rt.upper_right_adjoint, dict(m=np.zeros((2, 6, 6))), "v", (2, 3, 3)),
    (rt.diagonal_blocks, {}, "m", (6, 6)),
    (rt.column, dict(a=np.zeros((3, 3))), "v", (3,)),
]


@pytest.mark.parametrize("helper, others, param, shape", PIECES,
                         ids=[f"{p[0].__name__}-{i}" for i, p in enumerate(PIECES)])
@pytest.mark.parametrize("dtype", [float, complex])
def test_each_piece_row_is_its_transpose(helper, others, param, shape, dtype):
    """``<G, L(D)> == <T(G), D>`` for the row's template ``T``, real and complex."""
    rng = _rng(helper.__name__)
    d = _c(rng, *shape) if dtype is complex else rng.standard_normal(shape)
    out = helper(**{param: d}, **others)
    g = _c(rng, *np.shape(out)) if dtype is complex else rng.standard_normal(np.shape(out))
    template = REGISTRY.lookup(helper).adjoints[param]
    transposed = _evaluate(template, g=g, **{param: d}, **others)
    assert np.shape(transposed) == np.shape(d)
    np.testing.assert_allclose(_pair(g, out), _pair(transposed, d), rtol=1e-12, atol=1e-12)


def test_upper_block_and_factor_product_rows_are_their_transposes():
    """The two-argument pieces, in each argument."""
    rng = _rng("two-argument pieces")
    a, e, g6 = _c(rng, 3, 3), _c(rng, 3, 3), _c(rng, 6, 6)
    rule = REGISTRY.lookup(rt.upper_block)
    out = rt.upper_block(a, e)
    np.testing.assert_allclose(_pair(g6, out), _pair(_evaluate(rule.adjoints["a"], g=g6), a)
                               + _pair(_evaluate(rule.adjoints["e"], g=g6), e), rtol=1e-12)
    m, f, g = _c(rng, 3, 3), _c(rng, 3, 3), _c(rng, 3, 3)
    rule = REGISTRY.lookup(rt.factor_product)
    for lower in (True, False):
        out = rt.factor_product(m, f, lower)
        for param, value in (("m", m), ("f", f)):
            transposed = _evaluate(rule.adjoints[param], g=g, m=m, f=f, lower=lower)
            # bilinear: <G, P(m, f)> is linear in each
            np.testing.assert_allclose(_pair(g, out), _pair(transposed, value), rtol=1e-12)


# -- orders 2 and 3 through the public rows ----------------------------------------------
# One composition per function in CI, the modes spread over the functions.
SAMPLE = [
    ("scipy.linalg.solve_triangular[conjugate transposed]", 0, 3, "rev-fwd-rev"),
    ("scipy.linalg.cho_solve[lower]", 0, 3, "rev-rev-rev"),
    ("scipy.linalg.solve[sym]", 0, 2, "fwd-fwd"),
    ("scipy.linalg.inv[pos]", 0, 3, "fwd-fwd-rev"),
    ("scipy.linalg.expm[N(3, 3)]", 0, 2, "rev-rev"),
]


@pytest.mark.parametrize("label, index, order, mode", SAMPLE)
def test_orders_two_and_three_sample(label, index, order, mode):
    check_order(BY_LABEL[label], _rng(label), index, order, mode)


COMPLEX_SAMPLE = [
    ("scipy.linalg.solve_triangular[unit diagonal]", 1, "fwd-fwd-rev"),
    ("scipy.linalg.sqrtm[spd(3, 3)]", 0, "rev-fwd-rev"),
]


def _complex_case(label):
    return cr.Case(BY_LABEL[label], "row", "reverse")


@pytest.mark.parametrize("label, index, mode", COMPLEX_SAMPLE)
def test_complex_order_three_sample(label, index, mode):
    cr.check_order(_complex_case(label), index, 3, mode, "complex")


COMPLEX_FULL = [(r.label(), index, mode) for r in ROWS if cr.real_only(r) is None
                for index in r.wrt for mode in ORDER_MODES[3]]


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("label, index, mode", COMPLEX_FULL)
def test_every_complex_row_at_order_three(label, index, mode):
    cr.check_order(_complex_case(label), index, 3, mode, "complex")


# -- a wrong piece is seen from the second order on ----------------------------------------
# Rows of their own (what is generated under a wrong row stays cached on these only).
PLANTED = {
    "triangular": row("scipy.linalg.solve_triangular", lambda a, b: sl.solve_triangular(
        a, b, lower=True, trans="T"), wellcond(3, 3), normal(3, 2)),
    "cholesky": row("scipy.linalg.cho_solve", lambda a, b: sl.cho_solve(sl.cho_factor(a), b),
                    spd(3), normal(3)),
    "expm": row("scipy.linalg.expm", lambda a: sl.expm(a), normal(2, 2, 2)),
}


@pytest.mark.parametrize("helper, param, planted, mode", [
    (rt.triangle_read, "m", "triangular", "rev-rev"),
    (rt.factor_product, "f", "cholesky", "fwd-rev"),
    (rt.upper_right, "m", "expm", "rev-fwd-rev"),
])
def test_a_wrong_piece_row_fails(monkeypatch, helper, param, planted, mode):
    """A piece's row is read only by derivatives of the first-order templates: off by
    1%, the first derivative stays right and the higher ones fail."""
    rule = REGISTRY.lookup(helper)
    monkeypatch.setitem(rule.adjoints, param, f"1.01 * ({rule.adjoints[param]})")
    if isinstance(rule.tangent, dict):
        monkeypatch.setitem(rule.tangent, param, f"1.01 * ({rule.tangent[param]})")
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check_order(PLANTED[planted], _rng(planted), 0, 1 + mode.count("-"), mode)
    finally:
        monkeypatch.undo()
        REGISTRY.changed()
