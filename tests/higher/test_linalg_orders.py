"""Second and third derivatives through ``numpy.linalg``'s factorizations, whose rules are
written with rows only (``srcgrad.rules.linalg_templates``): programs that read their
named-tuple results (``.eigenvalues``, unpacking), real and complex, in every composition
of ``tests.rules.orders`` against central finite differences of the plain function.

CI checks a deterministic sample (every program, real and complex, at orders 2 and 3);
``--rule-orders-full`` checks every (program, dtype, order, composition). A planted wrong
row of one of the pieces is caught at second order.
"""

import zlib

import numpy as np
import pytest

from srcgrad.rules import REGISTRY
from tests.rules import complex_rows as cr
from tests.rules.harness import REVERSE, In, normal, row, spd, wellcond
from tests.rules.orders import ORDER_MODES, check_order, hash_sample

la = np.linalg


def separated(n, batch=()):
    """A symmetric (complex: Hermitian) matrix with eigenvalues 1, 2, ... n: gaps of 1,
    so that finite differences of its eigenvectors are accurate at third order."""
    def make(rng, kind=float):
        a = rng.standard_normal(batch + (n, n))
        if kind is complex:
            a = a + 1j * rng.standard_normal(batch + (n, n))
        q = np.linalg.qr(a)[0]
        return q * np.arange(1.0, n + 1) @ np.conj(np.swapaxes(q, -1, -2))
    return In(make, label=f"separated{batch + (n, n)}",
              complex_make=lambda rng: make(rng, complex))


def diagonalizable(n):
    """``S diag(1, ..., n) S^-1`` with ``S`` near the identity: a general (not symmetric)
    matrix with eigenvalues well apart, whose order ``np.linalg.eig`` keeps nearby."""
    def make(rng, kind=float):
        s = np.eye(n) + 0.1 * rng.standard_normal((n, n))
        if kind is complex:
            s = s + 0.1j * rng.standard_normal((n, n))
        return s * np.arange(1.0, n + 1) @ np.linalg.inv(s)
    return In(make, label=f"diagonalizable{(n, n)}", complex_make=lambda rng: make(rng, complex))


def _modulus2(z):
    """``|z|^2``: invariant to the phase (sign) of a singular or eigen vector."""
    return np.real(z * np.conj(z))


def eigh_fields(a):
    result = la.eigh(a)
    return result.eigenvalues ** 2, _modulus2(result.eigenvectors)


def eigh_upper(a):
    w, v = la.eigh(a, UPLO="U")
    return w, _modulus2(v[..., 0])


def eigvalsh_cubed(a):
    return la.eigvalsh(a) ** 3


def svd_fields(a):
    u, s, vh = la.svd(a, full_matrices=False)
    return s, _modulus2(u), _modulus2(vh)


def svd_square(a):
    result = la.svd(a)
    return result.S * 2.0, _modulus2(result.U), _modulus2(result.Vh)


def singular_values(a):
    return la.svd(a, compute_uv=False)


def slogdet_fields(a):
    result = la.slogdet(a)
    return result.logabsdet, result.sign


def eig_fields(a):
    e, u = la.eig(a)
    return e, _modulus2(u)


def eigvals_of(a):
    return la.eigvals(a)


def cholesky_upper(a):
    return la.cholesky(a, upper=True)


def qr_fields(a):
    q, r = la.qr(a)
    return q, r


_RIGHT_HAND_SIDES = np.array([[0.3, -1.2], [0.8, 0.1], [-0.5, 0.9], [1.1, 0.4], [0.2, -0.7]])


def lstsq_fields(a):
    x, residuals, _, s = la.lstsq(a, _RIGHT_HAND_SIDES)
    return x, residuals, s


def pinv_of(a):
    return la.pinv(a)


def matrix_power_of(a):
    return la.matrix_power(a, 3) + la.matrix_power(a, -2)


ROWS = [
    row("numpy.linalg.eigh", eigh_fields, separated(3), note="named fields"),
    row("numpy.linalg.eigh", eigh_upper, separated(3, (2,)), note="upper, batched"),
    row("numpy.linalg.eigvalsh", eigvalsh_cubed, separated(3)),
    row("numpy.linalg.svd", svd_fields, normal(4, 3), note="tall, unpacked"),
    row("numpy.linalg.svd", svd_square, normal(3, 3), note="square, named fields"),
    row("numpy.linalg.svd", singular_values, normal(2, 4), note="values, wide"),
    row("numpy.linalg.slogdet", slogdet_fields, wellcond(3, 3), note="named fields"),
    row("numpy.linalg.eig", eig_fields, diagonalizable(3), note="unpacked"),
    row("numpy.linalg.eigvals", eigvals_of, diagonalizable(3)),
    row("numpy.linalg.cholesky", cholesky_upper, spd(3), note="upper"),
    row("numpy.linalg.qr", qr_fields, normal(4, 3), note="unpacked"),
    row("numpy.linalg.pinv", pinv_of, normal(3, 2)),
    row("numpy.linalg.lstsq", lstsq_fields, normal(5, 3), note="unpacked"),
    row("numpy.linalg.matrix_power", matrix_power_of, wellcond(3, 3), note="3 and -2"),
]
COMBOS = [(row_, kind, order, mode) for row_ in ROWS for kind in ("real", "complex")
          for order, modes in ORDER_MODES.items() for mode in modes]


def _id(combo):
    row_, kind, order, mode = combo
    return f"{row_.label()}-{kind}-order{order}-{mode}"


def _check(combo):
    row_, kind, order, mode = combo
    seed = zlib.crc32(_id(combo).encode())
    if kind == "real":
        check_order(row_, np.random.default_rng(seed), 0, order, mode)
    else:
        cr.check_order(cr.Case(row_, "row", REVERSE), 0, order, mode, "complex")


# each program, real and complex, at one composition of order 2 and one of order 3
SAMPLE = hash_sample(COMBOS, lambda c: (c[0].label(), c[1], c[2]), _id)


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_a_sample_of_factorizations_at_orders_two_and_three(combo):
    _check(combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_factorization_at_orders_two_and_three(combo):
    _check(combo)


def _planted_cholesky(a):
    return la.cholesky(a)


def _planted_eigh(a):
    return _modulus2(la.eigh(a)[1])


@pytest.mark.parametrize("fn, piece, order, mode", [
    (_planted_cholesky, "tril_half", 2, "rev-rev"),
    (_planted_cholesky, "tril_half", 3, "rev-fwd-rev"),
    (_planted_eigh, "eigen_gaps", 2, "fwd-rev"),
    (_planted_eigh, "eigen_gaps", 3, "rev-rev-rev"),
])
def test_a_wrong_piece_row_fails(monkeypatch, fn, piece, order, mode):
    """A piece's row off by 1% (both modes' templates), read only above first order."""
    from srcgrad import runtime

    rule = REGISTRY.lookup(getattr(runtime, piece))
    param = rule.params[0]
    monkeypatch.setitem(rule.adjoints, param, f"1.01 * ({rule.adjoints[param]})")
    if isinstance(rule.tangent, dict):
        monkeypatch.setitem(rule.tangent, param, f"1.01 * ({rule.tangent[param]})")
    else:
        monkeypatch.setattr(rule, "tangent_call", None)
        monkeypatch.setattr(rule, "tangent", {param: f"1.01 * _sg.{piece}({param}_dot)"})
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check_order(row(f"planted.{piece}", fn, separated(3)), np.random.default_rng(3), 0,
                        order, mode)
    finally:
        monkeypatch.undo()
        REGISTRY.changed()
