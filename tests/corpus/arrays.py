"""NumPy array programs: reductions with axis and keepdims, dot/matmul/@, broadcasting."""

import numpy as np


def sum_axis(m):
    return np.sum(np.sum(m, axis=0) ** 2)


def mean_keepdims(m):
    centered = m - np.mean(m, axis=1, keepdims=True)
    return np.sum(centered ** 2)


def max_reduction(m):
    return np.sum(np.max(m, axis=1)) + np.min(m)


def prod_reduction(x):
    return np.prod(x) + np.sum(np.prod(np.reshape(x, (2, 2)), axis=0))


def method_reductions(m):
    return (m ** 2).sum(axis=1).mean() + m.max()


def dot_vector(x, y):
    return np.dot(x, y) ** 2


def matmul_operator(a, b):
    return np.sum((a @ b) ** 2)


def matvec(a, x):
    y = a @ x
    return np.dot(y, y)


def quadratic_form(a, x):
    return x @ (a @ x)


def broadcasting_row(m, b):
    return np.sum(np.tanh(m + b))


def broadcasting_column(m, c):
    return np.sum((m * c[:, None]) ** 2)


def softmax_cross_entropy(logits):
    shifted = logits - np.max(logits)
    logsumexp = np.log(np.sum(np.exp(shifted)))
    return logsumexp - shifted[1]


def layer_norm(x):
    mu = np.mean(x)
    var = np.mean((x - mu) ** 2)
    return np.sum(((x - mu) / np.sqrt(var + 1e-5)) ** 3)


def reshape_transpose(x):
    m = np.reshape(x, (2, 2))
    return np.sum(m @ m.T) + np.trace(m)


def mlp(w1, b1, w2, x):
    h = np.tanh(x @ w1 + b1)
    return np.sum((h @ w2) ** 2)


def cumulative(x):
    return np.sum(np.cumsum(x) ** 2)


def norm(x):
    return np.sqrt(np.sum(x * x))


def outer_product(x, y):
    return np.sum(np.outer(x, y) ** 2)


def clip_and_maximum(x):
    return np.sum(np.clip(x, -0.5, 0.5) * np.maximum(x, 0.1))
