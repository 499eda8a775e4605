"""The same function written against the array API standard, differentiated on every
library: reverse mode (grad), forward mode (jvp) and hvp agree with central finite
differences of the function itself evaluated on NumPy; derivatives stay arrays of the
input's library, and float32 stays float32.

CI runs a deterministic sample of (case, library) pairs; ``--xp-full`` runs them all.
"""

import numpy as np
import pytest

import srcgrad as sg
from tests.array_api.cases import build, cases, in_ci, inputs
from tests.array_api.libraries import LIBRARIES, convert, library_of, module, to_numpy

EPS = 1e-6


def _directional(f, args, index, v, eps=EPS):
    """d/dt f(args with args[index] + t v) at 0, by central differences (on NumPy)."""
    plus, minus = list(args), list(args)
    plus[index] = args[index] + eps * v
    minus[index] = args[index] - eps * v
    return (float(f(*plus)) - float(f(*minus))) / (2 * eps)


def _second_directional(f, args, index, u, v, eps=1e-4):
    """u^T H v by central differences of f along u and v."""
    def at(a, b):
        moved = list(args)
        moved[index] = args[index] + a * u + b * v
        return float(f(*moved))
    return (at(eps, eps) - at(eps, -eps) - at(-eps, eps) + at(-eps, -eps)) / (4 * eps * eps)


def check_modes(f, args, library, wrt=(0, 1), modes=("grad", "jvp", "hvp"), rtol=1e-5):
    """Each mode of srcgrad on ``library``'s arrays against finite differences of ``f``
    on NumPy (called twice: the second call reuses the generated code)."""
    rng = np.random.default_rng(7)
    lib_args = [convert(library, a) for a in args]
    for _ in range(2):
        if "grad" in modes:
            grads = sg.grad(f, wrt=wrt)(*lib_args)
            grads = grads if isinstance(grads, tuple) else (grads,)
            for i, g in zip(wrt, grads):
                if not isinstance(args[i], np.ndarray):
                    continue
                assert library_of(g) == library, (library, type(g))
                v = rng.standard_normal(np.shape(args[i]))
                numeric = _directional(f, args, i, v)
                analytic = float(np.sum(to_numpy(g) * v))
                assert np.isclose(analytic, numeric, rtol=rtol, atol=1e-6), (i, analytic,
                                                                             numeric)
        i = wrt[0]
        v = rng.standard_normal(np.shape(args[i]))
        if "jvp" in modes:
            value, tangent = sg.jvp(f, wrt=i)(*lib_args, convert(library, v))
            assert library_of(tangent) == library
            assert np.isclose(float(to_numpy(value)), float(f(*args)), rtol=1e-12)
            assert np.isclose(float(to_numpy(tangent)), _directional(f, args, i, v),
                              rtol=rtol, atol=1e-6)
        if "hvp" in modes:
            hv = sg.hvp(f, wrt=i)(*lib_args, convert(library, v))
            assert library_of(hv) == library
            u = rng.standard_normal(np.shape(args[i]))
            numeric = _second_directional(f, args, i, u, v)
            assert np.isclose(float(np.sum(to_numpy(hv) * u)), numeric, rtol=1e-3,
                              atol=1e-4), (float(np.sum(to_numpy(hv) * u)), numeric)


# Cases the library itself does not run: dask has no linalg.det, and reshapes only
# along its chunks (the adjoint's reshape back splits them unevenly).
NOT_IN_LIBRARY = {("shape-det", "dask"): "dask.array.linalg has no det",
                  ("shape-reshape", "dask"): "dask reshapes only along its chunks"}
# Second derivatives through these call NumPy-only helper rows so far: refused with a
# TransformError on other libraries (checked here), computed on NumPy.
NUMPY_ONLY_SECOND_ORDER = {"shape-inv", "shape-det", "shape-solve"}


def _pairs():
    out = []
    for case_id, source, sx, sy, low, high in cases():
        for library in LIBRARIES:
            marks = () if in_ci(case_id, library) else (pytest.mark.xp_full,)
            if (case_id, library) in NOT_IN_LIBRARY:
                marks += (pytest.mark.skip(reason=NOT_IN_LIBRARY[case_id, library]),)
            out.append(pytest.param(case_id, source, sx, sy, low, high, library,
                                    id=f"{case_id}-{library}", marks=marks))
    return out


@pytest.mark.parametrize("case_id, source, sx, sy, low, high, library", _pairs())
def test_case_on_library(case_id, source, sx, sy, low, high, library):
    module(library)
    f = build(case_id, source)
    args = inputs(case_id, sx, sy, low, high)
    if case_id in NUMPY_ONLY_SECOND_ORDER and library not in ("numpy", "dask"):
        check_modes(f, args, library, modes=("grad", "jvp"))
        v = convert(library, np.ones_like(args[0]))
        with pytest.raises(sg.TransformError, match="NumPy arrays only so far"):
            sg.hvp(f, wrt=0)(*[convert(library, a) for a in args], v)
        return
    check_modes(f, args, library)


# The (workload, library) pairs CI runs; --xp-full runs every pair.
CI_WORKLOADS = {("mlp", "numpy"), ("mlp", "array_api_strict"), ("mlp", "torch"),
                ("logreg", "jax"), ("logreg", "dask"), ("rnn", "numpy")}


def _workloads():
    return [pytest.param(w, lib, id=f"{w}-{lib}",
                         marks=() if (w, lib) in CI_WORKLOADS else (pytest.mark.xp_full,))
            for w in ("mlp", "rnn", "logreg") for lib in LIBRARIES]


@pytest.mark.parametrize("workload, library", _workloads())
def test_workload_on_library(workload, library):
    """The benchmark workloads written with ``xp``: grad against finite differences, jvp
    and hvp too on NumPy and torch."""
    import importlib

    module(library)
    wl = importlib.import_module(f"benchmarks.workloads.{workload}")
    args = wl.inputs("tiny")
    modes = ("grad", "jvp", "hvp") if library in ("numpy", "torch") else ("grad",)
    check_modes(wl.xp_objective, args, library, wrt=tuple(wl.WRT[:2]), modes=modes)


@pytest.mark.parametrize("library", [
    pytest.param(lib, marks=() if lib in ("torch", "jax") else (pytest.mark.xp_full,))
    for lib in LIBRARIES])
def test_float32_stays_float32(library):
    from benchmarks.workloads import mlp

    lib = module(library)
    args = [a.astype(np.float32) if isinstance(a, np.ndarray) else a for a in mlp.inputs("tiny")]
    grads = sg.grad(mlp.xp_objective, wrt=(0, 1))(*[convert(library, a) for a in args])
    float32 = lib.float32 if library != "dask" else np.float32
    for g in grads:
        assert library_of(g) == library
        assert g.dtype == float32, g.dtype
    reference = sg.grad(mlp.objective, wrt=(0, 1))(*[a.astype(np.float64) for a in args])
    for g, r in zip(grads, reference):
        assert np.allclose(to_numpy(g), r, rtol=1e-3, atol=1e-5)
