"""Module-level functions whose derivatives are pickled by name (tests/jaxlike)."""

import numpy as np

SCALE = 1.5


def loss(x, w):
    return np.sum(np.tanh(x * w) ** 2) * SCALE


def with_aux(x, w):
    h = np.tanh(x * w)
    return np.sum(h ** 2), {"h": h}


def vector(x):
    return {"s": np.sin(x) * SCALE, "p": x[0] * x[1]}
