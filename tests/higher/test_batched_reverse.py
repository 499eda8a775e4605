"""The batched reverse sweep (a block of cotangents, ``compiler.reverse_batched``) and the
Jacobians and Hessian-vector products built on it.

Rule rows: every row of the rule tests at its shape variants and dtypes, k = 1, 2, 7
cotangents, against the one-row backward sweep, central differences and forward mode
(``tests.higher.batched_reverse_cases``); a deterministic sample runs by default,
``--batched-reverse-full`` runs every case. Programs: loops, branches, in-place writes,
containers, broadcasting and chunk boundaries, through ``sg.jacrev`` / ``sg.jacobian``
against the one-row-per-sweep Jacobian and central differences; each called twice.
"""

import numpy as np
import pytest

import srcgrad as sg
from benchmarks.gradbench import ba
from srcgrad import runtime
from srcgrad.api import batched_rows, jacobians
from srcgrad.api.batched_hvp import hvp_block
from srcgrad.compiler.reverse_batched import batched_reverse_unit
from tests.higher import batched_reverse_cases
from tests.higher.test_jacobians_fd import finite_jacobian

_CASES = batched_reverse_cases.cases()
_EVERY = 29   # the sample CI runs: every 29th case (all rows' kinds, about 70 cases)


def _params():
    return [pytest.param(case, id=case.label(), marks=[] if n % _EVERY == 0
                         else [pytest.mark.batched_reverse_full])
            for n, case in enumerate(_CASES)]


@pytest.mark.parametrize("case", _params())
def test_rule_row_batched_matches_rows_differences_and_forward(case):
    batched_reverse_cases.check(case)


def test_most_rule_rows_have_a_batched_sweep():
    """The batched sweep is not silently bypassed: most sampled rows get a unit."""
    sample = _CASES[::_EVERY]
    found = [batched_reverse_unit(c.row.fn, batched_reverse_cases.names_of(c.row.fn, c.row.wrt))
             for c in sample]
    assert sum(u is not None for u in found) >= 0.9 * len(sample)


def test_a_planted_wrong_batched_rule_fails(monkeypatch):
    """The check catches a batched helper that mixes rows (here: the batched
    ``unbroadcast`` handing the rows back in reverse order)."""
    real = runtime.batch_unbroadcast
    monkeypatch.setattr(runtime, "batch_unbroadcast", lambda g, x: real(g, x)[..., ::-1])
    case = next(c for c in _CASES if c.row.name == "numpy.multiply" and c.variant == "broadcast"
                and c.dtype == "float64")
    with pytest.raises(AssertionError):
        batched_reverse_cases.check(case, ks=(2,))


# -- programs ---------------------------------------------------------------------------
def loop(x):
    y = x
    for _ in range(3):
        y = y * x + np.sin(y)
    return y


def while_loop(x):
    y, n = x * 1.0, 0
    while n < 4:
        y = np.tanh(y) * x[::-1]
        n += 1
    return y[1:] * y[0]


def branch(x):
    if np.sum(x) > 0:
        y = np.exp(x) * x[0]
    else:
        y = np.cos(x) / (1.0 + x ** 2)
    return y


def inplace(x):
    out = np.zeros(4)
    out[0] = x[0] * x[1]
    out[1:3] = np.sin(x[1:3]) * x[2]
    out[3] = np.sum(x ** 2)
    out[1] += x[0]
    return out


def containers(x):
    parts = []
    for k in range(3):
        parts.append(x * (k + 1.0))
    pair = (parts[0] * parts[2], parts[1])
    table = {"a": pair[0], "b": np.sin(pair[1])}
    return np.concatenate([table["a"], table["b"], np.stack(parts)[1]])


def broadcasting(x):
    w = np.array([[1.0], [2.0], [-0.5]])
    return (np.sin(x) * w + x ** 2).ravel()


def reductions(x):
    m = x.reshape(2, 3)
    return np.concatenate([np.sum(m * m, axis=0), np.mean(np.exp(m), axis=1), [np.max(m)]])


def matrix_products(x):
    a = x.reshape(2, 3)
    return (a @ a.T).ravel() + np.dot(a[0], a[1])


def scalar_in(x):
    return np.array([np.sin(x), x ** 2, np.exp(x) * x])


def recursive(x, n=2):
    if n == 0:
        return np.sin(x)
    return recursive(x * 1.5, n - 1) + x


PROGRAMS = [(loop, (3,)), (while_loop, (3,)), (branch, (4,)), (inplace, (3,)),
            (containers, (2,)), (broadcasting, (4,)), (reductions, (6,)),
            (matrix_products, (6,)), (scalar_in, ()), (scalar_in, (1,))]


def _per_row(jacobian, *args):
    saved = jacobians.batched_rows
    jacobians.batched_rows = lambda *a: None
    try:
        return jacobian(*args)
    finally:
        jacobians.batched_rows = saved


@pytest.mark.parametrize("k", [1, 2, 7, None], ids=["k1", "k2", "k7", "one-chunk"])
@pytest.mark.parametrize("f, shape", PROGRAMS, ids=lambda p: getattr(p, "__name__", str(p)))
def test_programs_batched_jacobian_matches_rows_and_differences(f, shape, k, monkeypatch):
    x = np.random.default_rng(7).uniform(0.3, 0.9, shape)
    x = float(x) if shape == () else x
    expected = finite_jacobian(f, x)
    if k is not None:   # chunks of k rows (the output's size + the input's, per row)
        monkeypatch.setattr(batched_rows, "CHUNK_ELEMENTS", k * (expected.size // max(
            1, np.size(x)) + np.size(x)))
    assert batched_reverse_unit(f, ("x",)) is not None
    jacobian = sg.jacrev(f)
    for _ in range(2):
        got = jacobian(x)
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(got, _per_row(jacobian, x), rtol=1e-12, atol=1e-14)


def test_adjoint_identity_on_programs():
    """``<u, J v> = <J^T u, v>``: the batched rows against forward mode's columns."""
    rng = np.random.default_rng(5)
    for f, shape in PROGRAMS:
        x = rng.uniform(0.3, 0.9, shape)
        x = float(x) if shape == () else x
        rows = sg.jacrev(f)(x)
        v = rng.standard_normal(np.shape(x))
        tangent = np.asarray(sg.jvp(f)(x, v if shape else float(v))[1])
        u = rng.standard_normal(tangent.shape)
        lhs = np.sum(u * tangent)
        rhs = np.sum(np.tensordot(u, rows, axes=tangent.ndim) * v)
        assert np.isclose(lhs, rhs, rtol=1e-10, atol=1e-12), f.__name__


def test_float32_and_complex_jacobians_match_rows():
    x32 = np.array([0.3, 0.5, 0.7], dtype=np.float32)
    got = sg.jacrev(loop)(x32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, _per_row(sg.jacrev(loop), x32), rtol=1e-6)

    def cplx(z):
        return np.sin(z) * z[0] + z ** 2

    z = np.array([0.3 + 0.2j, -0.4 + 0.1j])
    np.testing.assert_allclose(sg.jacrev(cplx)(z), _per_row(sg.jacrev(cplx), z), rtol=1e-12)


def test_what_has_no_batched_form_takes_rows_one_at_a_time():
    """A recursive function has no batched unit: jacrev takes one backward sweep per
    row, with the same numbers."""
    assert batched_reverse_unit(recursive, ("x",)) is None
    x = np.array([0.2, 0.4])
    np.testing.assert_allclose(sg.jacrev(recursive)(x), finite_jacobian(recursive, x),
                               rtol=1e-6, atol=1e-7)


def test_bundle_adjustment_block():
    params, feat = ba.inputs(1, seed=11)[0]
    unit = batched_reverse_unit(ba.reprojection_error, ("params",))
    assert unit is not None and unit.per_row_steps == 0

    def block(p):
        return ba.reprojection_error(p, feat)

    np.testing.assert_allclose(sg.jacobian(ba.reprojection_error)(params, feat),
                               finite_jacobian(block, params), rtol=1e-6, atol=1e-6)


def test_hand_tracking_like_rows_in_one_sweep():
    """Matrix products, joins and np.array of lists have batched forms: the kinematic
    chain's 300 rows take one sweep, one step of it (a method called through a value)
    once per row; the rows match forward mode's columns and the one-row sweeps."""
    from benchmarks.gradbench import hand_like

    f = getattr(hand_like, hand_like.JACOBIAN_OF)
    args = hand_like.inputs(1)[0]
    unit = batched_reverse_unit(f, ("theta",))
    assert unit is not None and unit.per_row_steps <= 1
    got = sg.jacrev(f)(*args)
    np.testing.assert_allclose(got, sg.jacfwd(f)(*args), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got, _per_row(sg.jacrev(f), *args), rtol=1e-12, atol=1e-14)


def test_generated_batched_backward_reads_well():
    unit = batched_reverse_unit(ba.reprojection_error, ("params",))
    source = unit.source
    assert "def reprojection_error_backward_batched(saved, d_mul_7):" in source
    assert "# Backward sweep, a block of cotangents: each cotangent's last axis" in source
    assert "_sg.batch_unbroadcast(d_mul_7 * _sg.lifted(w), _sub_2)" in source
    assert "map_rows" not in source and "lambda" not in source
    assert sg.source(sg.jacrev(ba.reprojection_error)).count("backward_batched") >= 1
    backward = source[source.index("def reprojection_error_backward_batched"):]
    one_row = sg.vjp(ba.reprojection_error).unit.function_source("backward")
    assert len(backward.splitlines()) <= len(one_row.splitlines()) + 3   # the same steps


# -- Hessian-vector products with several vectors ----------------------------------------
def smooth(x, a):
    return np.sum(np.sin(x) * a * x) + np.dot(x, x) ** 2


def indexed(x, a):
    return np.sum(x ** 3) * x[0] * x[1] + a * np.sum(np.exp(x))


def product(x, a):
    return np.prod(x[:2]) * np.sum(x) + a


@pytest.mark.parametrize("f", [smooth, indexed, product], ids=lambda f: f.__name__)
@pytest.mark.parametrize("k", [1, 2, 7])
def test_hvp_block_matches_hessian_and_differences(f, k):
    rng = np.random.default_rng(k)
    x, a = rng.uniform(0.2, 0.8, 4), 1.5
    V = rng.standard_normal((4, k))
    products = hvp_block(f, chunk=2)
    gradient = sg.grad(f)
    eps = 1e-6
    fd = np.stack([(gradient(x + eps * V[:, j], a) - gradient(x - eps * V[:, j], a)) / (2 * eps)
                   for j in range(k)], axis=-1)
    for _ in range(2):
        got = products(x, a, V)
        np.testing.assert_allclose(got, sg.hessian(f)(x, a) @ V, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(got, fd, rtol=1e-5, atol=1e-6)
    assert products.batched   # (np.prod too: its derivatives' helpers have rows)
