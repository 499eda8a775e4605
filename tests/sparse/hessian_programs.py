"""Scalar programs whose Hessian sparsity patterns tests/sparse/test_pattern.py checks
(see ``pattern_programs`` for the fields of a case)."""

from __future__ import annotations

import numpy as np

from tests.sparse.pattern_programs import _BAND, Case, _rand


def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def _band(n, width):
    i, j = np.indices((n, n))
    return np.abs(i - j) <= width


def products(x):
    return np.sum(x[1:] * x[:-1]) + np.sum(x ** 2)


def two_arguments(x, y):
    return np.sum(np.sin(x) * y)


def _two_exact(args):
    n = np.size(args[0])
    eye = np.eye(n, dtype=bool)
    return np.block([[eye, eye], [eye, np.zeros((n, n), dtype=bool)]])


def matvec_energy(x):
    return np.sum(np.exp(_BAND @ x))


def linear_parts(x):
    return np.sum(3.0 * x) + x[0] * x[2] - np.mean(x)


def _linear_exact(args):
    out = np.zeros((5, 5), dtype=bool)
    out[0, 2] = out[2, 0] = True
    return out


def grouped(x):
    return np.prod(x[:3]) + np.sum(x[3:]) ** 2 + np.linalg.norm(x[:2])


def loop_energy(x):
    energy = 0.0
    for i in range(x.shape[0] - 1):
        energy = energy + (x[i + 1] - x[i]) ** 2
    return energy


def branch_energy(x):
    if np.sum(x) > 3.0:
        return np.sum(x ** 3)
    return np.sum(x[1:] * x[:-1])


def multilinear_energy(x):
    grid = x.reshape(3, 4)
    return np.einsum("ij,ij->", grid, grid @ _BAND[:4, :4]) + np.sum(np.convolve(x, x[:3])) \
        + np.sum(np.sort(x) ** 2) + np.sum(np.gradient(x) * x)


def division(x):
    return np.sum(x[1:] / (1.0 + x[:-1] ** 2))


def _division_exact(args):
    out = _band(5, 1)
    out[4, 4] = False   # x[4] is only ever a numerator: linear in it
    return out


HESSIAN_CASES = [
    Case("rosenbrock", rosenbrock, (0,), _rand(6), exact=lambda a: _band(6, 1)),
    Case("products", products, (0,), _rand(6), exact=lambda a: _band(6, 1)),
    Case("two_arguments", two_arguments, (0, 1),
         lambda rng: (rng.uniform(0.2, 1.5, 4), rng.uniform(0.2, 1.5, 4)), exact=_two_exact),
    Case("matvec_energy", matvec_energy, (0,), _rand(6),
         exact=lambda a: (_BAND.T != 0).astype(int) @ (_BAND != 0).astype(int) != 0),
    Case("linear_parts", linear_parts, (0,), _rand(5), exact=_linear_exact),
    Case("grouped", grouped, (0,), _rand(6)),
    Case("loop_energy", loop_energy, (0,), _rand(5), exact=lambda a: _band(5, 1)),
    Case("branch_energy", branch_energy, (0,), lambda rng: (rng.uniform(0.2, 1.5, 4),),
         scope="local"),
    Case("division", division, (0,), _rand(5), exact=_division_exact),
    Case("multilinear_energy", multilinear_energy, (0,), _rand(12)),
]
