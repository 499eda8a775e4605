"""Test rows for scipy.linalg (present only when SciPy imports). Triangular and symmetric
arguments are full random matrices: the rows differentiate the function SciPy computes,
which reads one triangle."""

import numpy as np

from tests.rules.harness import normal, row, spd, wellcond

try:
    import scipy.linalg as sl
except ImportError:  # pragma: no cover
    sl = None

ROWS = [] if sl is None else [
    row("scipy.linalg.solve_triangular", lambda a, b: sl.solve_triangular(a, b), wellcond(3, 3),
        normal(3)),
    row("scipy.linalg.solve_triangular", lambda a, b: sl.solve_triangular(a, b, lower=True,
        trans="T"), wellcond(3, 3), normal(3, 2), note="lower, transposed"),
    row("scipy.linalg.solve_triangular", lambda a, b: sl.solve_triangular(
        a, b, trans=1, unit_diagonal=True), wellcond(3, 3), normal(3, 2), note="unit diagonal"),
    row("scipy.linalg.solve_triangular", lambda a, b: sl.solve_triangular(
        a, b, trans="C", lower=True), wellcond(3, 3), normal(3, 2), note="conjugate transposed"),
    row("scipy.linalg.cholesky", lambda a: sl.cholesky(a), spd(3)),
    row("scipy.linalg.cholesky", lambda a: sl.cholesky(a, lower=True), spd(3), note="lower"),
    row("scipy.linalg.cho_factor", lambda a: sl.cho_factor(a)[0], spd(3)),
    row("scipy.linalg.cho_factor", lambda a: sl.cho_factor(a, lower=True)[0], spd(3),
        note="lower"),
    row("scipy.linalg.cho_solve", lambda a, b: sl.cho_solve(sl.cho_factor(a), b), spd(3),
        normal(3)),
    row("scipy.linalg.cho_solve", lambda a, b: sl.cho_solve(sl.cho_factor(a, True), b), spd(3),
        normal(3, 2), note="lower"),
    row("scipy.linalg.cho_solve", lambda c, b: sl.cho_solve((c, False), b), spd(3),
        normal(3, 2), note="from a factor"),
    row("scipy.linalg.solve", lambda a, b: sl.solve(a, b), wellcond(3, 3), normal(3)),
    row("scipy.linalg.solve", lambda a, b: sl.solve(a, b, transposed=True), wellcond(3, 3),
        normal(3, 2), note="transposed"),
    row("scipy.linalg.solve", lambda a, b: sl.solve(a, b, assume_a="pos", lower=True), spd(3),
        normal(3), note="pos, lower"),
    row("scipy.linalg.solve", lambda a, b: sl.solve(a, b, assume_a="sym"), spd(3),
        normal(3, 2), note="sym"),
    row("scipy.linalg.inv", lambda a: sl.inv(a), wellcond(3, 3)),
    row("scipy.linalg.inv", lambda a: sl.inv(a, assume_a="pos"), spd(3), note="pos"),
    row("scipy.linalg.solve", lambda a, b: sl.solve(a, b, assume_a="her", lower=True), spd(3),
        normal(3, 2), note="her, lower"),
    row("scipy.linalg.det", lambda a: sl.det(a), wellcond(3, 3)),
    row("scipy.linalg.expm", lambda a: sl.expm(a), normal(3, 3)),
    row("scipy.linalg.expm", lambda a: sl.expm(a), normal(2, 2, 2), note="batched"),
    row("scipy.linalg.sqrtm", lambda a: sl.sqrtm(a), spd(3)),
    row("numpy.sum", lambda a: np.sum(sl.sqrtm(a @ a.T + np.eye(3))), normal(3, 3),
        note="sqrtm of a product"),
]
