"""The dependency sweep on the corpus programs: the Jacobian's pattern holds every
nonzero of the Jacobian, checked against central differences along each input element
(an oracle independent of srcgrad) and against ``sg.jacfwd``; a scalar program's Hessian
pattern holds every nonzero of ``sg.hessian`` and of central differences of ``sg.grad``.
A deterministic sample (every fifth program) runs by default; ``--corpus-patterns-full``
runs every program."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.sparse.pattern import hessian_pattern, jacobian_pattern
from tests.corpus.test_corpus import SCALAR_CASES, VECTOR_CASES

_EVERY = 5


def _params(cases=SCALAR_CASES + VECTOR_CASES):
    found = []
    for n, case in enumerate(cases):
        if case.xfail or case.rejected:
            continue
        marks = [pytest.mark.corpus_patterns_full] if n % _EVERY else []
        for index in case.wrt:
            arg = case.args[index]
            if isinstance(arg, (float, np.ndarray)) and np.asarray(arg).dtype.kind == "f":
                found.append(pytest.param(case, index, id=f"{case.id}-wrt{index}",
                                          marks=marks))
    return found


def _central_differences(case, index, eps=1e-6, fn=None):
    fn = fn or case.fn
    x = np.asarray(case.args[index], dtype=float)
    columns = []
    for k in range(x.size):
        step = np.zeros(x.size)
        step[k] = eps

        def at(sign, step=step):
            args = case.fresh_args()
            moved = x + sign * step.reshape(x.shape)
            args[index] = float(moved) if isinstance(case.args[index], float) else moved
            return np.ravel(np.asarray(fn(*args), dtype=float))

        columns.append((at(1) - at(-1)) / (2 * eps))
    return np.stack(columns, axis=1)


@pytest.mark.parametrize("case, index", _params())
def test_the_pattern_holds_the_jacobian(case, index):
    try:
        jacobian = np.asarray(sg.jacfwd(case.fn, wrt=index)(*case.fresh_args()))
    except (sg.TransformError, NotImplementedError):
        pytest.skip("forward mode refuses this program")
    for _ in range(2):
        found = jacobian_pattern(case.fn, (index,), tuple(case.fresh_args()), {})
        pattern = found.matrix.toarray()
        assert found.scope in ("global", "local")
        assert not (np.reshape(jacobian, pattern.shape) != 0)[~pattern].any(), found.reasons
        fd = _central_differences(case, index)
        assert not (np.abs(fd) > 1e-5)[~pattern].any(), found.reasons


@pytest.mark.parametrize("case, index", _params(SCALAR_CASES))
def test_the_hessian_pattern_holds_the_hessian(case, index):
    try:
        sg.grad(case.fn, wrt=index)(*case.fresh_args())
    except (sg.TransformError, NotImplementedError):
        pytest.skip("srcgrad refuses this program's gradient")
    found = hessian_pattern(case.fn, (index,), tuple(case.fresh_args()), {})
    pattern = found.matrix.toarray()
    assert (pattern == pattern.T).all()
    hessian = np.asarray(sg.hessian(case.fn, wrt=index)(*case.fresh_args()))
    assert not (np.reshape(hessian, pattern.shape) != 0)[~pattern].any(), found.reasons
    fd = _central_differences(case, index, eps=1e-5, fn=sg.grad(case.fn, wrt=index))
    assert not (np.abs(fd) > 1e-3)[~pattern].any(), found.reasons
