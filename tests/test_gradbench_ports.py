"""Each ported ADBench / GradBench objective (``benchmarks/gradbench``) at a tiny size:
srcgrad's derivative, as ``benchmarks.gradbench.table`` times it, against central finite
differences of the NumPy objective (the benchmark itself never runs in the tests)."""

import importlib

import numpy as np
import pytest

from benchmarks.gradbench import derivatives, table

EPS = 1e-6


def _partials(f, args, index, eps=EPS):
    """d f(*args) / d args[index], by central differences: an array shaped
    ``f``'s output + the argument's shape."""
    x = np.asarray(args[index], dtype=float)
    columns = []
    for i in range(x.size):
        step = np.zeros(x.size)
        step[i] = eps
        plus, minus = list(args), list(args)
        plus[index], minus[index] = x + step.reshape(x.shape), x - step.reshape(x.shape)
        columns.append((np.asarray(f(*plus)) - np.asarray(f(*minus))) / (2 * eps))
    return np.moveaxis(np.array(columns), 0, -1).reshape(np.shape(f(*args)) + x.shape)


def _diagonal_second(f, args, index, eps=1e-4):
    x = np.asarray(args[index], dtype=float)
    out = np.zeros(x.size)
    for i in range(x.size):
        step = np.zeros(x.size)
        step[i] = eps
        values = []
        for sign in (1, 0, -1):
            moved = list(args)
            moved[index] = x + sign * step.reshape(x.shape)
            values.append(f(*moved))
        out[i] = (values[0] - 2 * values[1] + values[2]) / eps ** 2
    return out.reshape(x.shape)


def _expected(module, args):
    f = derivatives.function_of(module)
    if module.DERIVATIVE == "jacobian":
        return _partials(f, args, 0)
    if module.DERIVATIVE == "newton_direction":
        return _partials(f, args, module.WRT) / _diagonal_second(f, args, module.WRT)
    if isinstance(module.WRT, tuple):
        return tuple(_partials(f, args, i) for i in module.WRT)
    return _partials(f, args, module.WRT)


@pytest.mark.parametrize("name", table.OBJECTIVES)
def test_port_derivative_matches_finite_differences(name):
    module = importlib.import_module(f"benchmarks.gradbench.{name}")
    cases = table.cases(module, "tiny")
    derivative = derivatives.make("srcgrad", module, cases[0])
    for args in cases:
        for _ in range(2):
            got, want = derivatives.flat(derivative(*args)), derivatives.flat(
                _expected(module, args))
            assert len(got) == len(want)
            for g, w in zip(got, want):
                assert g.shape == w.shape
                assert np.allclose(g, w, rtol=1e-5, atol=1e-6), name


def test_the_table_measures_and_compares(monkeypatch):
    """The table's machinery at a tiny size with srcgrad alone: a ratio, a first call."""
    result = table.measure("lse", "tiny", repeats=1, min_time=0.0, tools=("srcgrad",))
    line = table.row("lse", result)
    assert result["primal"] > 0 and result["srcgrad"] > 0 and result["first srcgrad"] > 0
    assert line.startswith("| lse | 100000 | gradient |") and line.count("|") == 10
