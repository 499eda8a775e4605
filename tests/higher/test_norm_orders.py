"""``np.linalg.norm`` at orders 1 to 3: every ``ord`` NumPy defines, as a vector norm (of
the flattened array, or along an axis, keepdims) and as a matrix norm (over the last two
axes, or a pair of axes of a stack), real and complex, 0-d and size 1, and inside a
composed program, against central finite differences of the plain function
(``tests.rules.orders``; the first order by ``srcgrad.testing.check_grads``, whose oracle
is a central difference too).

Its rows are templates of NumPy rows (``srcgrad.rules.linalg_templates.NORM``), so every
order goes through rows. Inputs keep away from the kinks and ties (``away``).

CI checks each (formula, dtype) at order 1 and 2 and two forms at order 3 (a fixed hash
sample); ``--rule-orders-full`` checks every (form, dtype, order, composition). A planted
error in a piece the template uses fails at second and third order.
"""

import zlib

import numpy as np
import pytest

from srcgrad.rules import REGISTRY
from srcgrad.runtime import norm_kind
from srcgrad.testing import check_grads
from tests.rules import complex_rows as cr
from tests.rules.harness import REVERSE, In, row
from tests.rules.orders import ORDER_MODES, check_order, hash_sample

la = np.linalg
INF = np.inf


def _separated(values, gap, axis=None):
    """Sorted along ``axis`` (all of them: None), neighbours at least ``gap`` apart."""
    values = np.ravel(values) if axis is None else values
    return np.all(np.diff(np.sort(values, axis=axis), axis=-1 if axis is None else axis) >= gap)


def away(*shape):
    """Entries of modulus in [0.5, 2], random sign (complex: random phase), without ties:
    the moduli at least 0.05 apart, the sums of moduli along an axis at least 0.1 from
    those they are compared with (along another axis), so
    that a piecewise-linear norm picks one winner, which the finite differences' steps do
    not change."""
    count = int(np.prod(shape))

    def make(rng, kind=float):
        for _ in range(1000):
            ranks = rng.permutation(count) + rng.uniform(0.0, 0.2, count)
            size = np.reshape(0.5 + 1.5 * ranks / max(count, 1), shape)
            if _separated(size, 0.05) and all(_separated(np.sum(size, axis=a), 0.1, b)
                                              for a in range(size.ndim)
                                              for b in range(size.ndim - 1)):
                break
        else:
            raise AssertionError(f"no {shape} array without ties in 1000 draws")
        if kind is complex:
            return size * np.exp(2j * np.pi * rng.uniform(0, 1, shape))
        return np.asarray(size * rng.choice([-1.0, 1.0], shape))
    return In(make, label=f"away{shape}", complex_make=lambda rng: make(rng, complex))


def norm_of(ord, axis=None, keepdims=False):
    def norm(x):
        return la.norm(x, ord, axis, keepdims)
    return norm


def composed_norms(x):
    return np.sum(la.norm(np.sin(x), 3, axis=0) ** 2) + la.norm(x @ x.T, "nuc") * \
        la.norm(x, INF)


VECTOR_ORDS = (None, 2, 1, INF, -INF, 3, 4, -1, -2, 0.5, 0)
MATRIX_ORDS = (None, "fro", "nuc", 1, -1, 2, -2, INF, -INF)
FORMS = ([(f"vector ord={o!r}", norm_of(o), away(5)) for o in VECTOR_ORDS]
         + [(f"vector ord={o!r} axis=1", norm_of(o, 1), away(3, 4)) for o in VECTOR_ORDS]
         + [(f"vector ord={o!r} axis=-1 keepdims", norm_of(o, -1, True), away(2, 1, 3))
            for o in (3, INF, 1)]
         + [(f"vector ord={o!r} size 1", norm_of(o), away(1)) for o in (None, 1, 3, -INF)]
         + [("vector 0-d", norm_of(None), away())]
         + [(f"matrix ord={o!r}", norm_of(o), away(3, 4)) for o in MATRIX_ORDS]
         + [(f"matrix ord={o!r} axis=(2, 0)", norm_of(o, (2, 0)), away(3, 2, 4))
            for o in MATRIX_ORDS if o is not None]
         + [(f"matrix ord={o!r} keepdims", norm_of(o, (0, 1), True), away(2, 3))
            for o in ("nuc", 2, 1)]
         + [(f"matrix ord={o!r} size 1", norm_of(o, (0, 1)), away(1, 1))
            for o in ("fro", "nuc", -2, INF)]
         + [("composed: p=3 of sin(x), nuc of x x^T, inf of x", composed_norms, away(3, 3))])
ROWS = [row("numpy.linalg.norm", fn, spec, note=label) for label, fn, spec in FORMS]
ORDERS = {1: ("check_grads",), **ORDER_MODES}
COMBOS = [(row_, kind, order, mode) for row_ in ROWS for kind in ("real", "complex")
          for order, modes in ORDERS.items() for mode in modes]


def _family(row_):
    """The formula the rows use for this form (``srcgrad.runtime.norm_kind``)."""
    fn = row_.fn
    if fn is composed_norms:
        return "composed"
    cells = dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__)))
    x = row_.inputs[0].make(np.random.default_rng(0))
    return norm_kind(x, cells["ord"], cells["axis"])


def _id(combo):
    row_, kind, order, mode = combo
    return f"{row_.note}-{kind}-order{order}-{mode}"


def _check(combo):
    row_, kind, order, mode = combo
    seed = zlib.crc32(_id(combo).encode())
    if order == 1:
        rng = np.random.default_rng(seed)
        x = row_.inputs[0].make(rng, complex if kind == "complex" else float)
        for _ in range(2):      # called twice: a cached unit gives the same
            check_grads(row_.fn, modes=["fwd", "rev"], order=1)(x)
    elif kind == "real":
        check_order(row_, np.random.default_rng(seed), 0, order, mode)
    else:
        cr.check_order(cr.Case(row_, "row", REVERSE), 0, order, mode, "complex")


# Each formula, real and complex, at order 1 and at one composition of order 2; order 3
# (slower: three transforms deep) at two forms.
SAMPLE = hash_sample([c for c in COMBOS if c[2] < 3], lambda c: (_family(c[0]), c[1], c[2]),
                     _id) + hash_sample([c for c in COMBOS if c[2] == 3], lambda c: c[1], _id)


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_a_sample_of_norms_at_orders_one_to_three(combo):
    _check(combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_norm_at_orders_one_to_three(combo):
    _check(combo)


@pytest.mark.parametrize("ord, axis, order, mode", [
    (3, None, 2, "rev-rev"), (3, None, 3, "fwd-fwd-rev"), ("nuc", None, 3, "fwd-fwd-rev"),
    (INF, 1, 2, "fwd-rev")])
def test_a_wrong_piece_fails(monkeypatch, ord, axis, order, mode):
    """``abs_partial``'s row (|x|'s derivative, in every vector formula) or
    ``eigen_gaps``' (in the SVD's, which differentiate the spectral norms' gradient), off
    by 1%: read from the second order on (abs_partial), from the third (eigen_gaps: the
    second derivative of U and V); the check fails."""
    import srcgrad.runtime as rt

    piece = rt.abs_partial if ord != "nuc" else rt.eigen_gaps
    rule = REGISTRY.lookup(piece)
    param = rule.params[0]
    monkeypatch.setitem(rule.adjoints, param, f"1.01 * ({rule.adjoints[param]})")
    monkeypatch.setitem(rule.tangent, param, f"1.01 * ({rule.tangent[param]})")
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            for kind in ("real", "complex"):
                shape = (5,) if ord == 3 else (3, 4)
                form = row("numpy.linalg.norm", norm_of(ord, axis), away(*shape), note="planted")
                _check((form, kind, order, mode))
    finally:
        monkeypatch.undo()
        REGISTRY.changed()
