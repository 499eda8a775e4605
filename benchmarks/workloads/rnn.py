"""A vanilla tanh RNN unrolled by a Python loop, squared error at every step."""

import numpy as np
from array_api_compat import array_namespace, device

NAME = "rnn"
TARGET = 2.5
WRT = (0, 1, 2, 3)
# (steps, batch, inputs, hidden, outputs)
SIZES = {"full": (50, 32, 64, 128, 10), "tiny": (4, 3, 5, 6, 2), "long": (400, 32, 64, 128, 10)}


def objective(Wx, Wh, b, Wy, xs, ys):
    h = np.zeros((xs.shape[1], Wh.shape[0]))
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ Wx + h @ Wh + b)
        loss = loss + np.sum((h @ Wy - ys[t]) ** 2)
    return loss / xs.shape[0]


def inputs(size="full", seed=0):
    steps, batch, n_in, n_hidden, n_out = SIZES[size]
    rng = np.random.default_rng(seed)
    Wx = rng.standard_normal((n_in, n_hidden)) / np.sqrt(n_in)
    Wh = rng.standard_normal((n_hidden, n_hidden)) / np.sqrt(n_hidden)
    b = 0.1 * rng.standard_normal(n_hidden)
    Wy = rng.standard_normal((n_hidden, n_out)) / np.sqrt(n_hidden)
    xs = rng.standard_normal((steps, batch, n_in))
    ys = rng.standard_normal((steps, batch, n_out))
    return Wx, Wh, b, Wy, xs, ys


def torch_objective(Wx, Wh, b, Wy, xs, ys):
    import torch

    h = torch.zeros((xs.shape[1], Wh.shape[0]), dtype=torch.float64)
    loss = 0.0
    for t in range(xs.shape[0]):
        h = torch.tanh(xs[t] @ Wx + h @ Wh + b)
        loss = loss + torch.sum((h @ Wy - ys[t]) ** 2)
    return loss / xs.shape[0]


def xp_objective(Wx, Wh, b, Wy, xs, ys):
    """``objective`` written against the array API standard: runs on any library."""
    xp = array_namespace(Wx, Wh, b, Wy, xs, ys)
    h = xp.zeros((xs.shape[1], Wh.shape[0]), dtype=Wh.dtype, device=device(Wh))
    loss = 0.0
    for t in range(xs.shape[0]):
        h = xp.tanh(xs[t, ...] @ Wx + h @ Wh + b)
        loss = loss + xp.sum((h @ Wy - ys[t, ...]) ** 2)
    return loss / xs.shape[0]
