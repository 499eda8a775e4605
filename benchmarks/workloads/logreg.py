"""Logistic regression: mean binary cross-entropy of a 1000x100 design matrix."""

import numpy as np
from array_api_compat import array_namespace

NAME = "logreg"
TARGET = 2.0
WRT = (0, 1)
SIZES = {"full": (1000, 100), "tiny": (12, 4)}


def objective(w, b, X, y):
    z = X @ w + b
    p = 1.0 / (1.0 + np.exp(-z))
    return -np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))


def inputs(size="full", seed=0):
    n, d = SIZES[size]
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = 0.1 * rng.standard_normal(d)
    y = (X @ rng.standard_normal(d) + 0.5 * rng.standard_normal(n) > 0).astype(np.float64)
    return w, 0.1, X, y


def torch_objective(w, b, X, y):
    import torch

    z = X @ w + b
    p = 1.0 / (1.0 + torch.exp(-z))
    return -torch.mean(y * torch.log(p) + (1.0 - y) * torch.log(1.0 - p))


def xp_objective(w, b, X, y):
    """``objective`` written against the array API standard: runs on any library."""
    xp = array_namespace(w, X, y)
    z = X @ w + b
    p = 1.0 / (1.0 + xp.exp(-z))
    return -xp.mean(y * xp.log(p) + (1.0 - y) * xp.log(1.0 - p))
