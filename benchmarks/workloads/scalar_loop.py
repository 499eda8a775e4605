"""A 1000-step recurrence on Python floats: per-operation overhead of scalar code."""

import numpy as np

NAME = "scalar_loop"
TARGET = 2.0
WRT = (0, 1)
SIZES = {"full": 1000, "tiny": 20}


def objective(w, c, steps):
    h = 0.5
    for _ in range(steps):
        h = np.tanh(h * w + c) + 0.1 * np.sin(h)
    return h


def inputs(size="full", seed=0):
    return 0.7, 0.2, SIZES[size]


def torch_objective(w, c, steps):
    import torch

    h = torch.tensor(0.5, dtype=torch.float64)
    for _ in range(steps):
        h = torch.tanh(h * w + c) + 0.1 * torch.sin(h)
    return h
