"""Sparse against dense on the corpus programs with an array argument: the Jacobian (and,
for a scalar output, the Hessian) w.r.t. each float array argument, the same floats up
to summation order, each called twice. A deterministic sample (every eighth program) runs
by default; ``--corpus-sparse-full`` runs every program."""

import numpy as np
import pytest

import srcgrad as sg
from tests.corpus.test_corpus import SCALAR_CASES, VECTOR_CASES

_EVERY = 8   # the sample CI runs


def _params():
    found = []
    for n, case in enumerate(SCALAR_CASES + VECTOR_CASES):
        if case.xfail or case.rejected:
            continue
        marks = [pytest.mark.corpus_sparse_full] if n % _EVERY else []
        for index in case.wrt:
            arg = case.args[index]
            if isinstance(arg, np.ndarray) and arg.dtype.kind == "f" and arg.ndim:
                found.append(pytest.param(case, index, id=f"{case.id}-wrt{index}",
                                          marks=marks))
    return found


def _dense_or_skip(compute):
    try:
        return compute()
    except (sg.TransformError, NotImplementedError, TypeError) as error:
        pytest.skip(f"the dense derivative refuses this program: {type(error).__name__}")


def _tolerance(dense):
    return dict(rtol=1e-11, atol=1e-12 * max(1.0, float(np.max(np.abs(dense), initial=0))))


@pytest.mark.parametrize("case, index", _params())
def test_sparse_equals_dense_on_the_corpus(case, index):
    value = case.fn(*case.fresh_args())
    items = value if isinstance(value, tuple) else (value,)
    if not all(isinstance(v, (np.ndarray, float, np.floating)) for v in items):
        pytest.skip("an output that is not arrays or numbers")
    x = case.args[index]
    dense = _dense_or_skip(lambda: sg.jacobian(case.fn, wrt=index)(*case.fresh_args()))
    blocks = dense if isinstance(value, tuple) else (dense,)
    dense = np.concatenate([np.reshape(b, (np.size(v), x.size)) for b, v in zip(blocks, items)])
    jacobian = sg.jacobian(case.fn, wrt=index, sparse=True)
    for _ in range(2):
        got = jacobian(*case.fresh_args())
        np.testing.assert_allclose(got.toarray(), dense, **_tolerance(dense))
    if np.size(value) == 1 and not isinstance(value, tuple):
        dense_h = np.reshape(_dense_or_skip(
            lambda: sg.hessian(case.fn, wrt=index)(*case.fresh_args())), (x.size, x.size))
        hessian = sg.hessian(case.fn, wrt=index, sparse=True)
        for _ in range(2):
            got = hessian(*case.fresh_args())
            np.testing.assert_allclose(got.toarray(), dense_h, **_tolerance(dense_h))
