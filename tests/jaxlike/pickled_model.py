"""Module-level functions whose derivatives are pickled by name (tests/jaxlike)."""

import numpy as np

import srcgrad as sg

SCALE = 1.5


def loss(x, w):
    return np.sum(np.tanh(x * w) ** 2) * SCALE


def with_aux(x, w):
    h = np.tanh(x * w)
    return np.sum(h ** 2), {"h": h}


def vector(x):
    return {"s": np.sin(x) * SCALE, "p": x[0] * x[1]}


WEIGHT = sg.Variable(np.array([0.5, -1.0, 2.0]))


def variable_loss(x):
    """Reads the Variable WEIGHT (for the implicit gradient functions)."""
    return np.sum(np.tanh(WEIGHT * x) ** 2)
