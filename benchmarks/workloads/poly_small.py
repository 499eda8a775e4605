"""About 30 scalar operations in a straight line: the fixed cost of one gradient call."""

import numpy as np

NAME = "poly_small"
TARGET = 3.0
WRT = (0, 1, 2)


def objective(x, y, z):
    a = x * y + z
    b = a * a - 3.0 * x
    c = b / (1.0 + y * y)
    d = np.sin(c) + np.cos(a)
    e = d * x - z * z
    f = np.exp(-0.5 * e * e)
    g = f * a + b * c
    h = np.tanh(g) * y
    k = h + 2.0 * x * z - 0.25 * a * b
    m = k * k / (1.0 + f)
    return m + np.log(1.0 + d * d) - e


def inputs(size="full", seed=0):
    return 0.3, -0.8, 1.1


def torch_objective(x, y, z):
    import torch

    a = x * y + z
    b = a * a - 3.0 * x
    c = b / (1.0 + y * y)
    d = torch.sin(c) + torch.cos(a)
    e = d * x - z * z
    f = torch.exp(-0.5 * e * e)
    g = f * a + b * c
    h = torch.tanh(g) * y
    k = h + 2.0 * x * z - 0.25 * a * b
    m = k * k / (1.0 + f)
    return m + torch.log(1.0 + d * d) - e
