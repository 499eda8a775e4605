"""``sg.jacfwd`` (the batched forward sweep where the program allows it, one ``jvp`` per
column where not) on the corpus programs: ``J @ v`` against the central difference of the
program along ``v``, for each array or number argument. A deterministic sample (every
fifth program) runs by default; ``--corpus-jacobians-full`` runs every program."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.compiler.forward_batched import batched_forward_unit
from tests.corpus.test_corpus import SCALAR_CASES, VECTOR_CASES

_EVERY = 5   # the sample CI runs


def _params(sample_only=False):
    found = []
    for n, case in enumerate(SCALAR_CASES + VECTOR_CASES):
        if case.xfail or case.rejected or sample_only and n % _EVERY:
            continue
        marks = [pytest.mark.corpus_jacobians_full] if n % _EVERY else []
        for index in case.wrt:
            arg = case.args[index]
            if isinstance(arg, (float, np.ndarray)) and np.asarray(arg).dtype.kind == "f":
                found.append(pytest.param(case, index, id=f"{case.id}-wrt{index}",
                                          marks=marks))
    return found


@pytest.mark.parametrize("case, index", _params())
def test_jacfwd_matches_finite_differences(case, index):
    try:
        sg.jvp(case.fn, wrt=index)(*case.fresh_args(), np.zeros_like(case.args[index]))
    except (sg.TransformError, NotImplementedError):
        pytest.skip("forward mode refuses this program")
    x = np.asarray(case.args[index], dtype=float)
    v = np.random.default_rng(3).standard_normal(x.shape)
    eps = 1e-6

    def at(step):
        args = case.fresh_args()
        args[index] = x + step * v if x.ndim else float(x + step * v)
        return np.asarray(case.fn(*args), dtype=float)

    expected = (at(eps) - at(-eps)) / (2 * eps)
    jacobian = sg.jacfwd(case.fn, wrt=index)
    for _ in range(2):
        jac = np.asarray(jacobian(*case.fresh_args()))
        out_shape = np.shape(expected)
        got = jac.reshape(out_shape + (x.size,)) @ v.reshape(-1)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_the_sample_is_mostly_batched():
    """The batched sweep is not silently bypassed: most sampled programs get a unit."""
    batched = total = 0
    for param in _params(sample_only=True):
        case, index = param.values
        name = list(__import__("inspect").signature(case.fn).parameters)[index]
        total += 1
        batched += batched_forward_unit(case.fn, (name,)) is not None
    assert batched >= total // 2, (batched, total)
