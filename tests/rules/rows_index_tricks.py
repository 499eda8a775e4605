"""Test rows for NumPy objects read by subscript (``np.r_``, ``np.c_``, ``np.mgrid``...)
and the builtins that build their keys."""

import numpy as np

from tests.rules.harness import normal, row, scalar

C = np.array([1.0, -2.0])
POLY = np.poly1d([1.0, 2.0, 3.0])   # a NumPy object with items: its coefficients
R = "numpy.r_[...] and numpy.c_[...]"
GRID = "numpy.mgrid[...] and numpy.ogrid[...]"

ROWS = [
    row(R, lambda x: np.r_[x, C], normal(3), note="r_ of arrays"),
    row(R, lambda x: np.r_[C, 0:2, x, 1.5], normal(2), note="r_ with a slice and a number"),
    row(R, lambda x, y: np.r_[x, y], scalar(), scalar(), note="r_ of floats"),
    row(R, lambda x: np.r_[x, x ** 2], normal(1), note="r_ of one element twice"),
    row(R, lambda x, y: np.r_["0,2", x, y], normal(3), normal(3), note="r_ with a directive"),
    row(R, lambda x, y: np.r_["-1", x, y], normal(2, 2), normal(2, 1), note="r_ last axis"),
    row(R, lambda x: np.c_[x, C], normal(2), note="c_ of 1-d"),
    row(R, lambda x, y: np.c_[x, y], normal(2, 3), normal(2, 1), note="c_ of 2-d"),
    row(GRID, lambda x: x * np.mgrid[0:2, 0:3][1], normal(2, 3), note="mgrid"),
    row(GRID, lambda x: x * np.mgrid[0:1:4j], normal(4), note="mgrid, linspace"),
    row(GRID, lambda x: x + np.ogrid[0:2, 0:3][0], normal(2, 3), note="ogrid"),
    row("an item of a NumPy or SciPy object (obj[key])", lambda x: x * POLY[1], normal(3),
        note="poly1d coefficient"),
    row("builtins.slice", lambda x: x[slice(1, None)] ** 2, normal(4)),
    row("builtins.slice", lambda x: x[np.s_[::2]] * x[np.index_exp[1]], normal(5),
        note="np.s_, np.index_exp"),
]
