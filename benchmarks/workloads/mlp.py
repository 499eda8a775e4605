"""A 784-256-10 tanh MLP on a batch of 128, softmax cross-entropy via logsumexp."""

import numpy as np
from array_api_compat import array_namespace

NAME = "mlp"
TARGET = 1.9
WRT = (0, 1, 2, 3)
SIZES = {"full": (784, 256, 10, 128), "tiny": (6, 5, 3, 4)}


def objective(W1, b1, W2, b2, x, y):
    h = np.tanh(x @ W1 + b1)
    logits = h @ W2 + b2
    m = np.max(logits, axis=1, keepdims=True)
    lse = m + np.log(np.sum(np.exp(logits - m), axis=1, keepdims=True))
    return -np.sum(y * (logits - lse)) / x.shape[0]


def inputs(size="full", seed=0):
    n_in, n_hidden, n_out, batch = SIZES[size]
    rng = np.random.default_rng(seed)
    W1 = rng.standard_normal((n_in, n_hidden)) / np.sqrt(n_in)
    b1 = 0.1 * rng.standard_normal(n_hidden)
    W2 = rng.standard_normal((n_hidden, n_out)) / np.sqrt(n_hidden)
    b2 = 0.1 * rng.standard_normal(n_out)
    x = rng.standard_normal((batch, n_in))
    y = np.eye(n_out)[rng.integers(0, n_out, batch)]
    return W1, b1, W2, b2, x, y


def torch_objective(W1, b1, W2, b2, x, y):
    import torch

    h = torch.tanh(x @ W1 + b1)
    logits = h @ W2 + b2
    m = torch.amax(logits, dim=1, keepdim=True)
    lse = m + torch.log(torch.sum(torch.exp(logits - m), dim=1, keepdim=True))
    return -torch.sum(y * (logits - lse)) / x.shape[0]


def xp_objective(W1, b1, W2, b2, x, y):
    """``objective`` written against the array API standard: runs on any library."""
    xp = array_namespace(W1, b1, W2, b2, x, y)
    h = xp.tanh(x @ W1 + b1)
    logits = h @ W2 + b2
    m = xp.max(logits, axis=1, keepdims=True)
    lse = m + xp.log(xp.sum(xp.exp(logits - m), axis=1, keepdims=True))
    return -xp.sum(y * (logits - lse)) / x.shape[0]
