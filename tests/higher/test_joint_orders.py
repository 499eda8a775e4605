"""Mixed partials: every differentiated argument of a row moves at once (each is a base
point plus a slice of one vector ``p``), so the derivatives of each argument's template
in the other arguments are read too (the row matrix moves one argument at a time).

Orders 2 and 3 in every composition of ``tests.rules.orders``, real and complex, against
a central difference of ``t -> L(p + t v)``; CI runs one composition per function,
``--rule-orders-full`` all of them.
"""

import zlib

import numpy as np
import pytest

from tests.rules.orders import ORDER_MODES, composed, finite_difference

sl = pytest.importorskip("scipy.linalg")
RNG = np.random.default_rng(11)


def _draw(dtype, *shape):
    real = RNG.standard_normal(shape)
    return real + 1j * RNG.standard_normal(shape) if dtype is complex else real


def _spd(dtype):
    m = _draw(dtype, 3, 3)
    return m @ np.conj(m.T) + 3 * np.eye(3)


BASES = {}
for _dtype in (float, complex):
    BASES[_dtype] = dict(
        a=_draw(_dtype, 3, 3) + 4 * np.eye(3), s=_spd(_dtype), c=np.linalg.cholesky(
            _spd(_dtype)).T.conj(), b=_draw(_dtype, 3, 2), bv=_draw(_dtype, 3),
        w=_draw(_dtype, 3, 2), wv=_draw(_dtype, 3), m=_draw(_dtype, 2, 3), n=_draw(_dtype, 3),
        band=_draw(_dtype, 4, 5) + 5 * np.array([[0.0], [1.0], [0.0], [0.0]]),
        b5=_draw(_dtype, 5, 2), w5=_draw(_dtype, 5, 2))


def _m(p, start):
    return np.reshape(p[start:start + 9], (3, 3))


def triangular(p, k):
    a, b = k["a"] + _m(p, 0), k["b"] + np.reshape(p[9:15], (3, 2))
    return np.sum(np.real(k["w"] * sl.solve_triangular(a, b, trans="C", lower=True)))


def triangular_unit(p, k):
    a, b = k["a"] + _m(p, 0), k["bv"] + p[9:12]
    return np.sum(np.real(k["wv"] * sl.solve_triangular(a, b, trans=1, unit_diagonal=True)))


def factor_solve(p, k):
    c, b = k["c"] + 0.3 * _m(p, 0), k["b"] + np.reshape(p[9:15], (3, 2))
    return np.sum(np.real(k["w"] * sl.cho_solve((c, False), b)))


def factor_then_solve(p, k):
    a, b = k["s"] + 0.3 * _m(p, 0), k["bv"] + p[9:12]
    return np.sum(np.real(k["wv"] * sl.cho_solve(sl.cho_factor(a, lower=True), b)))


def hermitian_solve(p, k):
    a, b = k["s"] + 0.3 * _m(p, 0), k["b"] + np.reshape(p[9:15], (3, 2))
    return np.sum(np.real(k["w"] * sl.solve(a, b, assume_a="her", lower=True)))


def general_solve(p, k):
    a, b = k["a"] + _m(p, 0), k["bv"] + p[9:12]
    return np.sum(np.real(k["wv"] * sl.solve(a, b, assume_a="sym")))


def transposed_solve(p, k):
    a, b = k["a"] + _m(p, 0), k["b"] + np.reshape(p[9:15], (3, 2))
    return np.sum(k["w"] * sl.solve(a, b, transposed=True))


def einsum(p, k):
    a, b, c = k["m"] + np.reshape(p[:6], (2, 3)), k["a"] + _m(p, 6), k["n"] + p[15:18]
    return np.sum(np.real(np.einsum("ij,jk,k->i", a, b, c) * np.array([0.7, -1.2])))


def banded(p, k):
    """Widths (2, 1): the band of A^T has other widths than A's."""
    ab, b = k["band"] + 0.3 * np.reshape(p[:20], (4, 5)), k["b5"] + np.reshape(p[20:30], (5, 2))
    return np.sum(np.real(k["w5"] * sl.solve_banded((2, 1), ab, b)))


def banded_vector(p, k):
    ab, b = k["band"][1:] + 0.3 * np.reshape(p[:15], (3, 5)), k["b5"][:, 0] + p[15:20]
    return np.sum(np.real(k["w5"][:, 1] * sl.solve_banded((1, 1), ab, b)))


def interpolated(p, k):
    x = np.array([-0.4, 0.3, 1.1, 1.7, 2.6]) + 0.1 * p[:5]
    xp = np.array([0.0, 1.0, 1.5, 2.0]) + 0.1 * p[5:9]
    fp = np.array([1.0, -0.5, 2.0, 0.3]) + p[9:13]
    return np.sum(np.interp(x, xp, fp) * np.array([0.5, -1.0, 2.0, 1.5, -0.3]))


def interpolated_values(p, k):
    """Complex values at real points (np.interp takes complex ``fp`` only)."""
    fp = np.array([1.0, -0.5, 2.0, 0.3]) + p[:4] * p[:4]
    x = np.array([-0.4, 0.3, 1.1, 1.7, 2.6])
    return np.sum(np.real(np.interp(x, np.array([0.0, 1.0, 1.5, 2.0]), fp, left=0.5)
                          * np.array([0.5, -1.0, 2.0, 1.5, -0.3j])))


# function, size of p, real only (SciPy refuses complex transposed solves; np.interp
# complex x or xp)
CASES = [(triangular, 15, False), (triangular_unit, 12, False), (factor_solve, 15, False),
         (factor_then_solve, 12, False), (hermitian_solve, 15, False),
         (general_solve, 12, False), (transposed_solve, 15, True), (einsum, 18, False),
         (banded, 30, False),
         (banded_vector, 20, False),
         (interpolated, 13, True), (interpolated_values, 4, False)]


def _combos():
    out = []
    for fn, size, real_only in CASES:
        for dtype in (float,) if real_only else (float, complex):
            for order, modes in ORDER_MODES.items():
                out += [(fn, size, dtype, order, mode) for mode in modes]
    return out


def _id(combo):
    fn, _, dtype, order, mode = combo
    return f"{fn.__name__}-{dtype.__name__}-order{order}-{mode}"


COMBOS = _combos()


def check(fn, size, dtype, order, mode):
    rng = np.random.default_rng(zlib.crc32(fn.__name__.encode()))
    k = BASES[dtype]

    def loss(p):
        return fn(p, k)
    p = 0.1 * rng.standard_normal(size)
    v = rng.standard_normal(size)
    if dtype is complex:
        p, v = p + 0.1j * rng.standard_normal(size), v + 1j * rng.standard_normal(size)
    numeric, rounding = finite_difference(loss, p, v, order)
    analytic = float(np.real(composed(loss, p, v, mode)))
    tol = 1e-4 * max(abs(numeric), abs(analytic)) + 1e-6 + rounding
    assert abs(numeric - analytic) <= tol, (
        f"{_id((fn, size, dtype, order, mode))}: finite differences {numeric!r}, srcgrad "
        f"{analytic!r}")


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_joint_derivative(combo):
    check(*combo)


SAMPLE = [(triangular, 15, complex, 3, "rev-fwd-rev"), (factor_then_solve, 12, float, 2, "rev-rev"),
          (interpolated, 13, float, 3, "fwd-fwd-rev"), (banded, 30, complex, 3, "rev-rev-rev"),
          (interpolated_values, 4, complex, 3, "rev-rev-rev")]


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_joint_derivative_sample(combo):
    check(*combo)
