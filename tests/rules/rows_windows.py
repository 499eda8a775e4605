"""Test rows for finite differences, selections, scalar-type casts, convolutions, window
views and the SciPy solvers and entropy added with them."""

import warnings

import numpy as np
import scipy.linalg
import scipy.signal
import scipy.stats
from numpy.lib.stride_tricks import as_strided, sliding_window_view

from tests.rules.harness import In, normal, positive, row, scalar, spd, wellcond

COORDS = np.array([0.0, 1.0, 1.5, 3.0, 4.2])


def _band(rng):
    return np.vstack([rng.uniform(-0.5, 0.5, 5), rng.uniform(3.0, 4.0, 5),
                      rng.uniform(-0.5, 0.5, 5)])


BAND = In(_band, label="band(1,1)x5",
          complex_make=lambda rng: _band(rng) + 0.3j * rng.standard_normal((3, 5)))


def _row_stack(a, b):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return np.row_stack([a, b])


def _symmetric(shape_n):
    def make(rng):
        a = rng.standard_normal((shape_n, shape_n))
        return a @ a.T / shape_n + np.eye(shape_n)
    return In(make, label=f"spd({shape_n})")


ROWS = [
    row("numpy.gradient", lambda f: np.gradient(f), normal(5)),
    row("numpy.gradient", lambda f: np.gradient(f, 0.5, edge_order=2), normal(5), note="h, 2"),
    row("numpy.gradient", lambda f: np.gradient(f, COORDS), normal(5), note="coordinates"),
    row("numpy.gradient", lambda f: np.gradient(f), normal(3, 4), note="2-d: a tuple"),
    row("numpy.gradient", lambda f: np.gradient(f, axis=1), normal(3, 4), note="axis"),
    row("numpy.row_stack", _row_stack, normal(3), normal(2, 3)),
    row("numpy.select", lambda x, y: np.select([x > 0, y < -0.5], [x * y, y], default=x),
        normal(6), normal(6)),
    row("numpy.select", lambda x, d: np.select([x > 0.3], [x], default=d), normal(2, 3),
        scalar(), note="scalar default"),
    # (float32 rounding is far above the finite differences' step: loose tolerances; the
    # two modes are checked against each other tightly)
    row("numpy.float32", lambda x: np.float32(x) * np.ones(2), normal(2), rtol=5e-2, atol=5e-2),
    row("numpy.float64", lambda x: np.float64(x), scalar()),
    row("numpy.longdouble", lambda x: np.float64(np.longdouble(x)), normal(2)),
    row("numpy.complex64", lambda x: np.complex64(x), scalar(), rtol=5e-2, atol=5e-2),
    row("numpy.complex128", lambda x: np.complex128(x) * (1 + 2j), normal(3)),
    row("numpy.clongdouble", lambda x: np.complex128(np.clongdouble(x)), scalar()),
    row("numpy.convolve", lambda a, v: np.convolve(a, v), normal(5), normal(3)),
    row("numpy.convolve", lambda a, v: np.convolve(a, v, "same"), normal(3), normal(5),
        note="same, longer second"),
    row("numpy.convolve", lambda a, v: np.convolve(a, v, "valid"), normal(6), normal(2),
        note="valid"),
    row("numpy.lib.stride_tricks.sliding_window_view",
        lambda x: sliding_window_view(x, 3), normal(6)),
    row("numpy.lib.stride_tricks.sliding_window_view",
        lambda x: sliding_window_view(x, (2, 2)), normal(3, 4), note="2-d windows"),
    row("numpy.lib.stride_tricks.sliding_window_view",
        lambda x: sliding_window_view(x, (2, 2), axis=(1, 1)), normal(2, 5),
        note="an axis twice"),
    row("numpy.lib.stride_tricks.as_strided",
        lambda x: as_strided(x, shape=(4, 3), strides=(8, 8)), normal(6)),
    row("numpy.lib.stride_tricks.as_strided",
        lambda x: as_strided(x, shape=(2, 2, 2, 2), strides=(32, 8, 32, 8)), normal(3, 4),
        note="2-d patches"),
    row("scipy.signal.convolve", lambda a, b: scipy.signal.convolve(a, b), normal(3, 4),
        normal(2, 2)),
    row("scipy.signal.convolve", lambda a, b: scipy.signal.convolve(a, b, "same"), normal(3, 4),
        normal(2, 3), note="same"),
    row("scipy.signal.convolve", lambda a, b: scipy.signal.convolve(a, b, "valid", "fft"),
        normal(2, 3), normal(3, 4), note="valid, fft"),
    row("scipy.linalg.solve_sylvester", lambda a, b, q: scipy.linalg.solve_sylvester(a, b, q),
        wellcond(3, 3), wellcond(2, 2), normal(3, 2)),
    row("scipy.linalg.solve_banded",
        lambda ab, b: scipy.linalg.solve_banded((1, 1), ab, b), BAND, normal(5)),
    row("scipy.linalg.solve_banded",
        lambda ab, b: scipy.linalg.solve_banded((1, 1), ab, b), BAND, normal(5, 2),
        note="two right-hand sides"),
    row("scipy.stats.multivariate_normal.entropy",
        lambda c: scipy.stats.multivariate_normal.entropy(cov=(c + c.T) / 2), spd(3)),
    row("scipy.stats.multivariate_normal.entropy",
        lambda c: scipy.stats.multivariate_normal.entropy(np.zeros(2), c), positive(2),
        note="variances"),
]
