"""Rows of functions that carry a value through one argument only (``math.copysign``,
``np.arange``, ``np.bincount(..., weights=w)``, ``np.heaviside``, ``fftfreq``)."""

import math

import numpy as np

from tests.rules.harness import const, normal, row, scalar, uniform

ROWS = [
    row("math.copysign", lambda x: math.copysign(x, -1.0), scalar(0.2, 1.0)),
    row("math.copysign", lambda x: math.copysign(x, 2.0), scalar(-1.0, -0.2), note="x < 0"),
    row("numpy.copysign", lambda x, y: np.copysign(x, y), normal(4),
        const(np.array([-1.0, 2.0, -0.0, 3.0]))),
    row("numpy.arange", lambda start, step: np.arange(start, 3.02, step),
        uniform(0.0, 0.01), uniform(0.49, 0.495)),
    row("numpy.bincount", lambda w, x: np.bincount(x, weights=w, minlength=5),
        normal(4), const(np.array([0, 3, 3, 1]))),
    row("numpy.heaviside", lambda x2, x1: np.heaviside(x1, x2),
        normal(4), const(np.array([-1.0, 0.0, 2.0, 0.0]))),
    row("numpy.fft.fftfreq", lambda d: np.fft.fftfreq(6, d), scalar(0.5, 2.0)),
    row("numpy.fft.rfftfreq", lambda d: np.fft.rfftfreq(7, d=d), scalar(0.5, 2.0)),
]
