"""Test rows for reductions, statistics, order statistics and integrals."""

import numpy as np

from tests.rules.harness import const, distinct, increasing, normal, positive, row, scalar

NANS = np.array([[0.3, np.nan, -1.2], [np.nan, 0.5, 2.0]])


def with_nans():
    """Normal draws with NaNs at fixed places (the NaNs get no cotangent)."""
    from tests.rules.harness import In

    def complex_make(rng):
        return rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3)) + 0 * NANS

    return In(lambda rng: rng.standard_normal((2, 3)) + 0 * NANS, label="with NaNs",
              complex_make=complex_make)


ROWS = [
    row("numpy.sum", lambda a: np.sum(a), normal(2, 3)),
    row("numpy.sum", lambda a: np.sum(a, axis=(0, 2), keepdims=True), normal(2, 3, 2),
        note="axes, keepdims"),
    row("numpy.sum", lambda a: a.sum(axis=1), normal(2, 3), note="method"),
    row("numpy.mean", lambda a: np.mean(a, axis=0), normal(2, 3)),
    row("numpy.mean", lambda a: np.mean(a, axis=-1, keepdims=True), normal(2, 3),
        note="keepdims"),
    row("numpy.prod", lambda a: np.prod(a, axis=1), normal(2, 3)),
    row("numpy.prod", lambda a, z: np.prod(a * z), normal(4), const(np.array([1, 0, 1, 1.0])),
        note="a zero"),
    row("numpy.cumsum", lambda a: np.cumsum(a, axis=1), normal(2, 3)),
    row("numpy.cumsum", lambda a: np.cumsum(a), normal(2, 3), note="flat"),
    row("numpy.cumprod", lambda a: np.cumprod(a, axis=0), positive(3, 2)),
    row("numpy.cumprod", lambda a, z: np.cumprod(a * z), normal(4),
        const(np.array([1, 0, 1, 1.0])), note="a zero"),
    row("numpy.max", lambda a: np.max(a, axis=1), distinct(2, 3)),
    row("numpy.max", lambda a: np.max(a), distinct(2, 3), note="all"),
    row("numpy.min", lambda a: np.min(a, axis=0, keepdims=True), distinct(2, 3)),
    row("numpy.amax", lambda a: np.amax(a), distinct(4)),
    row("numpy.amin", lambda a: np.amin(a, axis=1), distinct(2, 3)),
    row("numpy.nanmax", lambda a: np.nanmax(a, axis=1), with_nans()),
    row("numpy.nanmin", lambda a: np.nanmin(a), with_nans()),
    row("numpy.ptp", lambda a: np.ptp(a, axis=1), distinct(2, 4)),
    row("numpy.nansum", lambda a: np.nansum(a, axis=0), with_nans()),
    row("numpy.nanmean", lambda a: np.nanmean(a, axis=1), with_nans()),
    row("numpy.nanmean", lambda a: np.nanmean(a), with_nans(), note="all"),
    row("numpy.var", lambda a: np.var(a), normal(2, 3)),
    row("numpy.var", lambda a: np.var(a, axis=0, ddof=1, keepdims=True), normal(3, 2),
        note="ddof, keepdims"),
    row("numpy.std", lambda a: np.std(a, axis=1), normal(2, 4)),
    row("numpy.std", lambda a: np.std(a, ddof=1), normal(5), note="ddof"),
    row("numpy.median", lambda a: np.median(a), distinct(5)),
    row("numpy.median", lambda a: np.median(a, axis=1, keepdims=True), distinct(3, 4),
        note="even, keepdims"),
    row("numpy.quantile", lambda a: np.quantile(a, 0.3, axis=0), distinct(5, 2)),
    row("numpy.percentile", lambda a: np.percentile(a, [10.0, 75.0], axis=1), distinct(2, 6)),
    row("numpy.percentile", lambda a: np.percentile(a, 40.0), distinct(7), note="flat"),
    row("numpy.quantile", lambda a: np.quantile(a, [0.2, 0.9], keepdims=True), distinct(3, 3),
        note="flat, keepdims"),
    row("numpy.median", lambda a: np.median(a, axis=-1), distinct(2, 3, 3), note="last axis"),
    row("numpy.diff", lambda a: np.diff(a), normal(5)),
    row("numpy.diff", lambda a: np.diff(a, n=2, axis=0, prepend=0.0), normal(4, 2),
        note="n=2, prepend"),
    row("numpy.trapezoid", lambda y: np.trapezoid(y, dx=0.5), normal(2, 5)),
    row("numpy.trapezoid", lambda y, x: np.trapezoid(y, x), normal(3, 4), increasing(4),
        note="sample points"),
    row("numpy.trapezoid", lambda y, dx: np.trapezoid(y, dx=dx, axis=0), normal(4, 2),
        scalar(0.5, 1.0), note="dx"),
]
