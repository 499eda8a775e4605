"""Sparsity patterns from the dependency sweep (``srcgrad.sparse.pattern``).

Generated over a corpus of programs (``pattern_programs``): at several random points
(and each pattern asked twice) every nonzero of the dense Jacobian or Hessian must lie
inside the pattern, checked against central finite differences (an oracle independent
of srcgrad) and srcgrad's dense ``jacobian``/``hessian``; where the exact structure is
known independently (elementwise -> diagonal, stencils -> bands, the Brusselator ->
its 5-point coupling) the pattern must equal it. A planted rule that is too sparse must
make the check fail, at first and at second order.
"""

import time

import numpy as np
import pytest
import scipy.sparse as sp

import srcgrad as sg
from srcgrad.sparse import pattern_rules
from srcgrad.sparse.pattern import hessian_pattern, jacobian_pattern
from tests.sparse import hessian_programs
from tests.sparse import pattern_programs as programs

POINTS = 3


def _fd_jacobian(f, wrt, args, eps=1e-6):
    """Central differences, one column per wrt element (outputs flattened, a tuple's
    concatenated)."""
    def flat(out):
        items = out if isinstance(out, (tuple, list)) else (out,)
        return np.concatenate([np.ravel(np.asarray(o, dtype=float)) for o in items])

    columns = []
    for i in wrt:
        base = np.asarray(args[i], dtype=float)
        for k in range(base.size):
            step = np.zeros(base.size)
            step[k] = eps
            plus, minus = list(args), list(args)
            plus[i] = base + step.reshape(base.shape)
            minus[i] = base - step.reshape(base.shape)
            columns.append((flat(f(*plus)) - flat(f(*minus))) / (2 * eps))
    return np.stack(columns, axis=1)


def _dense_jacobian(f, wrt, args):
    """srcgrad's dense Jacobian laid out as the pattern: (outputs, wrt elements)."""
    jac = sg.jacobian(f, wrt if len(wrt) > 1 else wrt[0])(*args)
    out = f(*args)
    items = out if isinstance(out, (tuple, list)) else (out,)
    jac_items = jac if isinstance(out, (tuple, list)) else (jac,)
    rows = []
    for o, block in zip(items, jac_items):
        blocks = block if len(wrt) > 1 else (block,)
        rows.append(np.concatenate([np.reshape(b, (np.size(o), -1)) for b in blocks], axis=1))
    return np.concatenate(rows, axis=0)


def outside(pattern, dense, tol=0.0):
    """How many entries of ``dense`` above ``tol`` the pattern leaves out."""
    return int(((np.abs(dense) > tol) & ~pattern.toarray()).sum())


@pytest.mark.parametrize("case", programs.JACOBIAN_CASES, ids=lambda c: c.name)
def test_jacobian_pattern_contains_the_jacobian(case):
    rng = np.random.default_rng(7)
    seen = None   # the union of the nonzeros met at the points
    for _point in range(POINTS):
        args = case.make(rng)
        first = jacobian_pattern(case.f, case.wrt, args, {})
        again = jacobian_pattern(case.f, case.wrt, args, {})
        assert (first.matrix != again.matrix).nnz == 0
        fd = _fd_jacobian(case.f, case.wrt, args)
        assert first.matrix.shape == fd.shape
        assert first.matrix.dtype == bool and isinstance(first.matrix, sp.csr_array)
        assert outside(first.matrix, fd, tol=1e-6) == 0, case.name
        if case.dense_oracle:
            dense = _dense_jacobian(case.f, case.wrt, args)
            assert outside(first.matrix, dense) == 0, case.name
        assert first.scope == case.scope, (case.name, first.reasons)
        if case.tight:
            seen = (np.abs(fd) > 1e-6) | (False if seen is None else seen)
        if case.exact is not None:
            expected = case.exact(args)
            assert (first.matrix != sp.csr_array(expected, dtype=bool)).nnz == 0, case.name
    if case.tight:
        assert (first.matrix != sp.csr_array(seen)).nnz == 0, case.name


@pytest.mark.parametrize("case", hessian_programs.HESSIAN_CASES, ids=lambda c: c.name)
def test_hessian_pattern_contains_the_hessian(case):
    rng = np.random.default_rng(11)
    for _point in range(POINTS):
        args = case.make(rng)
        found = hessian_pattern(case.f, case.wrt, args, {})
        n = found.matrix.shape[0]
        assert found.matrix.shape == (n, n)
        assert (found.matrix != found.matrix.T).nnz == 0
        dense = sg.hessian(case.f, case.wrt if len(case.wrt) > 1 else case.wrt[0])(*args)
        if len(case.wrt) > 1:   # blocks of a tuple wrt, assembled
            sizes = [np.size(args[i]) for i in case.wrt]
            dense = np.block([[np.reshape(dense[i][j], (sizes[i], sizes[j]))
                               for j in range(len(sizes))] for i in range(len(sizes))])
        dense = np.reshape(dense, (n, n))
        assert outside(found.matrix, dense) == 0, case.name
        gradient = sg.grad(case.f, case.wrt if len(case.wrt) > 1 else case.wrt[0])
        flat_grad = _flat_gradient(gradient, len(case.wrt))
        assert outside(found.matrix, _fd_jacobian(flat_grad, case.wrt, args), tol=1e-4) == 0
        assert found.scope == case.scope, (case.name, found.reasons)
        if case.exact is not None:
            assert (found.matrix != sp.csr_array(case.exact(args), dtype=bool)).nnz == 0


def _flat_gradient(gradient, count):
    def flat(*args):
        g = gradient(*args)
        parts = g if count > 1 else (g,)
        return np.concatenate([np.ravel(p) for p in parts])
    return flat


def _too_sparse(ans, values, deps):
    """A planted wrong rule: the value depends on nothing."""
    return None


def _without_pairs(ans, values, deps):
    """A planted wrong rule: first order right, no second-order interactions added."""
    from srcgrad.sparse import pattern_deps as pd

    inputs = [d for d in deps.values() if d is not None]
    shape = np.shape(ans)
    rows = [pd.broadcast_rows(d.rows, np.shape(values[p]), shape)
            for p, d in deps.items() if d is not None]
    return pd.made(pd.union(*rows), inputs)


@pytest.mark.parametrize("name, planted, case", [
    ("numpy.multiply", _too_sparse, "lists"),
    ("numpy.roll", _too_sparse, "roll_flip_pad"),
    ("numpy.sum", _too_sparse, "reductions"),
])
def test_a_planted_bad_rule_is_caught(monkeypatch, name, planted, case):
    case = next(c for c in programs.JACOBIAN_CASES if c.name == case)
    args = case.make(np.random.default_rng(3))
    monkeypatch.setitem(pattern_rules.TABLE, name, planted)
    found = jacobian_pattern(case.f, case.wrt, args, {})
    assert outside(found.matrix, _fd_jacobian(case.f, case.wrt, args), tol=1e-6) > 0


def test_a_planted_rule_without_pairs_is_caught(monkeypatch):
    case = next(c for c in hessian_programs.HESSIAN_CASES if c.name == "products")
    args = case.make(np.random.default_rng(5))
    monkeypatch.setitem(pattern_rules.TABLE, "numpy.multiply", _without_pairs)
    found = hessian_pattern(case.f, case.wrt, args, {})
    dense = np.reshape(sg.hessian(case.f)(*args), found.matrix.shape)
    assert outside(found.matrix, dense) > 0


def test_a_row_without_pattern_rule_is_dense_with_a_reason():
    def f(x):
        a = np.eye(3) + 0.1 * np.outer(x, x)
        return np.linalg.solve(a, x) + x
    x = np.array([0.3, -0.2, 0.5])
    found = jacobian_pattern(f, (0,), (x,), {})
    assert found.matrix.toarray().all()
    assert any("numpy.linalg.solve" in r and "dense" in r and "test_pattern.py" in r
               for r in found.reasons), found.reasons


def test_a_hundred_thousand_unknowns_in_well_under_a_second():
    n_side = 224   # 2 * 224**2 = 100352 unknowns
    y = np.random.default_rng(0).random(2 * n_side * n_side)
    start = time.perf_counter()
    found = jacobian_pattern(programs.brusselator, (0,), (y,), {})
    elapsed = time.perf_counter() - start
    assert found.matrix.shape == (y.size, y.size)
    assert found.matrix.nnz == programs.brusselator_exact((y,)).nnz
    assert found.scope == "global"
    assert elapsed < 3.0, elapsed   # ~0.2 s alone; generous for a loaded CI machine


def _loop_residual(u):
    r = np.zeros(u.shape[0])
    r[0] = u[0]
    for i in range(1, u.shape[0] - 1):
        r[i] = u[i - 1] - 2.0 * u[i] + u[i + 1] + u[i] ** 2
    r[-1] = u[-1]
    return r


def _loop_energy(x):
    energy = 0.0
    for i in range(x.shape[0] - 1):
        energy = energy + (x[i + 1] - x[i]) ** 2
    return energy


def test_loops_over_elements_cost_each_step_little():
    """A loop over 2,000 elements: each step's reads, writes and joins cost about what
    the step's own size does (not a rebuilt 2,000-row matrix, nor every term met so far
    joined again): ~0.5 s alone for both."""
    u = np.random.default_rng(1).random(2000)
    start = time.perf_counter()
    jac = jacobian_pattern(_loop_residual, (0,), (u,), {})
    hess = hessian_pattern(_loop_energy, (0,), (u,), {})
    elapsed = time.perf_counter() - start
    band = sp.csr_array(sp.diags([1.0, 1.0, 1.0], [-1, 0, 1], shape=(2000, 2000)), dtype=bool)
    assert (hess.matrix != band).nnz == 0
    expected = band.tolil()
    expected[0, 1] = expected[1999, 1998] = False
    assert (jac.matrix != sp.csr_array(expected)).nnz == 0
    assert elapsed < 6.0, elapsed
