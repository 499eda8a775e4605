"""``sg.jacobian(f, sparse=True)`` and ``sg.hessian(f, sparse=True)`` on generated
functions: the same floats as the dense matrices (up to summation order), the products
with a random direction against central finite differences, each called twice; the
layout (C order, outputs and ``wrt`` concatenated); the kept pattern; the probe that
catches a pattern missing a nonzero."""

import sys

import numpy as np
import pytest
import scipy.sparse as sp

import srcgrad as sg
from tests.sparse import fake_pattern
from tests.sparse.programs import hessian_cases, jacobian_cases

JACOBIAN_CASES = jacobian_cases()
HESSIAN_CASES = hessian_cases()


def wrt_values(f, wrt, args):
    import inspect
    params = list(inspect.signature(f).parameters)
    items = wrt if isinstance(wrt, tuple) else (wrt,)
    return [np.asarray(args[w if isinstance(w, int) else params.index(w)]) for w in items]


def flat_output(value):
    items = value if isinstance(value, tuple) else (value,)
    return np.concatenate([np.ravel(v) for v in items])


def moved(args, f, wrt, vector, eps):
    """``args`` with the wrt arguments moved by ``eps * vector`` (split in C order)."""
    import inspect
    params = list(inspect.signature(f).parameters)
    args = list(args)
    start = 0
    for w in (wrt if isinstance(wrt, tuple) else (wrt,)):
        i = w if isinstance(w, int) else params.index(w)
        x = np.asarray(args[i])
        step = vector[start:start + x.size].reshape(x.shape)
        args[i] = x + eps * step if x.ndim else float(np.real(x + eps * step)) \
            if not np.iscomplexobj(x) else complex(x + eps * step)
        start += x.size
    return args


def tolerance(dense):
    return dict(rtol=1e-12, atol=1e-13 * max(1.0, float(np.max(np.abs(dense), initial=0))))


@pytest.mark.parametrize("name,f,wrt,args", JACOBIAN_CASES,
                         ids=[c[0] for c in JACOBIAN_CASES])
def test_sparse_jacobian_is_the_dense_one(name, f, wrt, args):
    jac = sg.jacobian(f, wrt, sparse=True)
    inputs = wrt_values(f, wrt, args)
    value = f(*args)
    dense = fake_pattern.dense_matrix(sg.jacobian(f, wrt)(*args), value, inputs,
                                      isinstance(wrt, tuple))
    for _ in range(2):
        got = jac(*args)
        assert isinstance(got, sp.csr_array)
        assert got.shape == (flat_output(value).size, sum(x.size for x in inputs))
        np.testing.assert_allclose(got.toarray(), dense, **tolerance(dense))
    # independent of srcgrad: J v against central differences
    if not any(np.iscomplexobj(x) for x in inputs):
        v = np.random.default_rng(0).standard_normal(got.shape[1])
        eps = 1e-6 if inputs[0].dtype == np.float64 else 1e-2
        numeric = (flat_output(f(*moved(args, f, wrt, v, eps)))
                   - flat_output(f(*moved(args, f, wrt, v, -eps)))) / (2 * eps)
        np.testing.assert_allclose(got @ v, numeric, rtol=1e-5 if eps < 1e-3 else 2e-2,
                                   atol=1e-6 if eps < 1e-3 else 2e-2)


@pytest.mark.parametrize("name,f,wrt,args", HESSIAN_CASES, ids=[c[0] for c in HESSIAN_CASES])
def test_sparse_hessian_is_the_dense_one(name, f, wrt, args):
    hess = sg.hessian(f, wrt, sparse=True)
    inputs = wrt_values(f, wrt, args)
    dense = fake_pattern.dense_hessian(sg.hessian(f, wrt)(*args), inputs,
                                       isinstance(wrt, tuple))
    for _ in range(2):
        got = hess(*args)
        assert isinstance(got, sp.csr_array) and got.shape == dense.shape
        np.testing.assert_allclose(got.toarray(), dense, **tolerance(dense))
    # H v against central differences of the gradient
    v = np.random.default_rng(1).standard_normal(got.shape[0])
    grad = sg.grad(f, wrt)

    def flat_grad(a):
        g = grad(*a)
        return np.concatenate([np.ravel(x) for x in (g if isinstance(wrt, tuple) else (g,))])
    numeric = (flat_grad(moved(args, f, wrt, v, 1e-6))
               - flat_grad(moved(args, f, wrt, v, -1e-6))) / 2e-6
    np.testing.assert_allclose(got @ v, numeric, rtol=1e-5, atol=1e-6)


def test_the_sparsity_functions_give_the_patterns():
    f = programs_stencil()
    x = np.random.default_rng(2).standard_normal(8)
    pattern = sg.jacobian_sparsity(f)(x, 0.5)
    assert pattern.dtype == bool and pattern.shape == (6, 8)
    expected = np.zeros((6, 8), bool)
    for i in range(6):
        expected[i, i:i + 3] = True
    assert np.array_equal(pattern.toarray(), expected)
    h = sg.hessian_sparsity(lambda x: np.sum(x[1:] * x[:-1]))(x)
    assert np.array_equal(h.toarray(), np.eye(8, k=1, dtype=bool) | np.eye(8, k=-1, dtype=bool))


def programs_stencil():
    from tests.sparse.programs import stencil_1d
    return stencil_1d


def test_refused_arguments_and_outputs(monkeypatch):
    module = fake_pattern.module()
    module.jacobian_pattern = lambda *_: fake_pattern.Pattern(
        sp.csr_array(np.eye(2, dtype=bool)), "global", ())
    monkeypatch.setitem(sys.modules, "srcgrad.sparse.pattern", module)
    with pytest.raises(TypeError, match="arrays or numbers"):
        sg.jacobian(lambda x: x[0] * 2.0, sparse=True)([np.ones(2)])
    with pytest.raises(TypeError, match="tuple of them"):
        sg.jacobian(lambda x: {"a": x * 2.0}, sparse=True)(np.ones(2))


class Counting:
    """A pattern finder that counts its calls and says what it is told to."""

    def __init__(self, scope, drop=None):
        self.scope, self.drop, self.calls = scope, drop, 0

    def jacobian_pattern(self, f, wrt, args, kwargs):
        self.calls += 1
        found = fake_pattern.jacobian_pattern(f, wrt, args, kwargs)
        matrix = found.matrix.toarray() | (np.eye(*found.matrix.shape, dtype=bool))
        if self.drop is not None:
            matrix[self.drop] = False
        return fake_pattern.Pattern(sp.csr_array(matrix), self.scope, ("counted",))


def with_finder(monkeypatch, finder):
    module = fake_pattern.module()
    module.jacobian_pattern = finder.jacobian_pattern
    monkeypatch.setitem(sys.modules, "srcgrad.sparse.pattern", module)


def branchy(x, t):
    if t > 1.0:
        return x * x
    return x * x + x[0]


def test_a_global_pattern_is_kept_and_a_local_one_found_again(monkeypatch):
    x = np.linspace(0.5, 1.5, 5)
    for scope, calls in (("global", 1), ("local", 3)):
        finder = Counting(scope)
        with_finder(monkeypatch, finder)
        jac = sg.jacobian(branchy, sparse=True)
        for _ in range(3):
            np.testing.assert_array_equal(jac(x, 2.0).toarray(), np.diag(2 * x))
        assert finder.calls == calls
        jac(np.ones(6), 2.0)   # another shape: another pattern
        assert finder.calls == calls + 1


def test_a_kept_pattern_that_misses_is_found_again(monkeypatch):
    finder = Counting("global")
    with_finder(monkeypatch, finder)
    jac = sg.jacobian(branchy, sparse=True)
    x = np.linspace(0.5, 1.5, 5)
    jac(x, 2.0)                 # kept: the diagonal, found where t > 1
    got = jac(x, 0.0)           # the other branch: column 0 is full
    expected = np.diag(2 * x)
    expected[:, 0] += 1.0
    np.testing.assert_array_equal(got.toarray(), expected)
    assert finder.calls == 2
    jac(x, 0.0)
    assert finder.calls == 3    # that signature's pattern is now found at each call


def test_a_pattern_that_misses_a_nonzero_is_an_error(monkeypatch):
    with_finder(monkeypatch, Counting("local", drop=(2, 2)))
    with pytest.raises(sg.SrcgradError, match=r"misses a nonzero in row\(s\) \[2\]"):
        sg.jacobian(branchy, sparse=True)(np.linspace(0.5, 1.5, 5), 2.0)


def test_rows_are_coloured_when_fewer_rows_colour():
    def spread(x):   # a full row: columns need a colour each, rows two
        return np.concatenate([np.sum(x * x, keepdims=True), np.sin(x)])
    x = np.linspace(1.0, 2.0, 6)
    from srcgrad.sparse import compressed
    pattern = sg.jacobian_sparsity(spread)(x)
    assert compressed.jacobian_compression(pattern).kind == "rows"
    assert compressed.jacobian_compression(pattern).count == 2
    dense = sg.jacobian(spread)(x)
    np.testing.assert_allclose(sg.jacobian(spread, sparse=True)(x).toarray(), dense,
                               rtol=1e-14)


def test_sparse_derivatives_pickle():
    import pickle

    from tests.sparse.programs import chain_energy, stencil_1d
    x = np.linspace(0.5, 1.5, 9)
    for made, args in ((sg.jacobian(stencil_1d, sparse=True), (x, 0.3)),
                       (sg.hessian(chain_energy, sparse=True), (x,)),
                       (sg.jacobian_sparsity(stencil_1d), (x, 0.3))):
        again = pickle.loads(pickle.dumps(made))
        assert (again(*args) != made(*args)).nnz == 0


def test_other_arguments_may_be_containers():
    def f(x, params):
        return np.sin(x) * params[0][0, 0] + params[1]

    params = [np.ones((2, 2)), np.arange(3.0)]
    x = np.linspace(0.0, 1.0, 3)
    got = sg.jacobian(f, sparse=True)(x, params)
    np.testing.assert_allclose(got.toarray(), np.diag(np.cos(x)), rtol=1e-15)


def test_a_batched_sweep_per_chunk_of_colours(monkeypatch):
    from srcgrad.api import batched_columns, sparse_sweeps
    from tests.sparse.programs import stencil_2d

    monkeypatch.setattr(sparse_sweeps, "SWEEP_ELEMENTS", 1)   # two directions a sweep
    runs, original = [], batched_columns._run

    def counting(unit, primals, tangents):
        runs.append(tangents[0].shape[-1])
        return original(unit, primals, tangents)
    monkeypatch.setattr(batched_columns, "_run", counting)
    u = np.random.default_rng(4).standard_normal((5, 6))
    got = sg.jacobian(stencil_2d, sparse=True)(u, 0.3)
    assert len(runs) > 2 and set(runs[:-1]) == {2} and runs[-1] in (1, 2)
    dense = sg.jacobian(stencil_2d)(u, 0.3).reshape(30, 30)
    np.testing.assert_allclose(got.toarray(), dense, rtol=1e-14, atol=1e-14)


def test_rows_and_hessians_take_the_batched_sweeps(monkeypatch):
    """Row colours in one batched backward sweep, Hessian colours in one batched sweep
    over the gradient (the numbers are checked against dense in the tests above)."""
    from srcgrad.api import sparse_sweeps
    from tests.sparse.programs import chain_energy

    found = []
    original = sparse_sweeps._batched_rows

    def recording(*a):
        found.append(original(*a))
        return found[-1]
    monkeypatch.setattr(sparse_sweeps, "_batched_rows", recording)

    def spread(x):
        return np.concatenate([np.sum(x * x, keepdims=True), np.sin(x)])
    x = np.linspace(1.0, 2.0, 6)
    np.testing.assert_allclose(sg.jacobian(spread, sparse=True)(x).toarray(),
                               sg.jacobian(spread)(x), rtol=1e-14)
    assert len(found) == 1 and found[0] is not None
    sg.hessian(chain_energy, sparse=True)(x)
    assert sparse_sweeps._hvp_block(chain_energy, "x", sparse_sweeps.SWEEP_ELEMENTS // 6).batched
