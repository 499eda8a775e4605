"""The dependency sweep on the differential fuzzer's programs (``benchmarks.fuzz``:
helpers, loops, branches, dicts, comprehensions, generators, tuples): the gradient's
nonzeros (srcgrad's, and central differences' where the pattern is global) lie in the
Jacobian pattern and the
Hessian's in the Hessian pattern, for each float argument. A fixed set of seeds: three
in CI, all 24 with ``--corpus-patterns-full``."""

import numpy as np
import pytest

import srcgrad as sg
from benchmarks.fuzz import runner
from benchmarks.fuzz.generate import generate
from srcgrad.sparse.pattern import hessian_pattern, jacobian_pattern

_CI = (91002, 91008, 91020)   # (a second or less each)
SEEDS = [pytest.param(seed, marks=[] if seed in _CI else [pytest.mark.corpus_patterns_full])
         for seed in range(91000, 91024)]


def _float_arguments(args):
    return [i for i, a in enumerate(args)
            if isinstance(a, (float, np.ndarray)) and np.asarray(a).dtype.kind == "f"]


def _central_gradient(f, args, i, eps=1e-6):
    x = np.asarray(args[i], dtype=float)
    out = np.zeros(x.size)
    for k in range(x.size):   # (overflow in a fuzzed program's far corner: inf, no warning)
        step = np.zeros(x.size)
        step[k] = eps
        plus, minus = list(args), list(args)
        plus[i] = x + step.reshape(x.shape) if x.ndim else float(x + eps)
        minus[i] = x - step.reshape(x.shape) if x.ndim else float(x - eps)
        with np.errstate(all="ignore"):
            out[k] = (f(*plus) - f(*minus)) / (2 * eps)
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_patterns_hold_the_derivatives_of_fuzzed_programs(seed):
    program = generate(seed)
    f, entry = runner.load(program.source, program.func, len(program.arg_specs))
    try:
        args = runner.inputs(program.arg_specs, seed)
        for i in _float_arguments(args):
            try:
                gradient = np.ravel(sg.grad(f, wrt=i)(*args))
                hessian = np.asarray(sg.hessian(f, wrt=i)(*args))
            except (sg.TransformError, NotImplementedError):
                continue
            found = jacobian_pattern(f, (i,), tuple(args), {})
            pattern = found.matrix.toarray()[0]
            assert not (gradient != 0)[~pattern].any(), program.source
            if found.scope == "global":   # (a local one's branch may flip within a step)
                assert not (np.abs(_central_gradient(f, args, i)) > 1e-5)[~pattern].any()
            pairs = hessian_pattern(f, (i,), tuple(args), {}).matrix.toarray()
            assert not (hessian.reshape(pairs.shape) != 0)[~pairs].any(), program.source
    finally:
        runner.unload(entry)
