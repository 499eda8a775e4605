"""A model whose data is a dask array (tests/jaxlike/test_dask.py)."""

import numpy as np


def loss(w, x, y):
    residual = np.tanh(x @ w) - y
    return np.sum(residual ** 2) + 0.1 * np.mean(x ** 2)


# One function per kind of operation a gradient on dask arrays goes through.
def elementwise(x):
    return np.sum(np.sin(x) * np.exp(x) + np.tanh(x) / (1 + x ** 2) + np.log1p(x ** 2)
                  + np.sqrt(x ** 2 + 1) + np.abs(x) ** x + np.sinc(x))


def reductions(x):
    return (np.sum(np.mean(x, axis=0) ** 2) + np.max(x) + np.sum(np.min(x, axis=1))
            + np.var(x) + np.sum(np.cumsum(x, axis=0) ** 2) + np.linalg.norm(x))


def products(x):
    return np.sum((x @ x.T) @ x[:, 0]) + np.sum(np.dot(x, x[0])) + np.prod(x[1] + 1.0) \
        + np.einsum("ij,ij->", x, x) + np.sum(np.tensordot(x, x, axes=1))


def product_with_a_zero(x):
    return np.prod(x * np.array([1.0, 0.0, 1.0, 1.0]), axis=1).sum()


def broadcasting(x):
    return np.sum(x * x[0] + x[:, :1] * 2.0 + np.maximum(x, 0.0) * np.where(x > 0, x, 0.5))


def indexing(x):
    return (np.sum(x[1:] ** 2) + x[0, 1] * x[2, 2] + np.sum(x[:, 0])
            + np.sum(x[[0, 2, 0, 0]] ** 2) + np.sum(x[:, [3, 1, 3]] ** 3)
            + np.sum(x[np.array([True, False, True, True])] ** 2)
            + np.sum(np.concatenate([x, x ** 2]) ** 2))


def masked_by_its_values(x):
    return np.sum(x[x > 0] ** 2)


def methods(x):
    return x.T.dot(x).sum() + (x.sum(axis=1, keepdims=True) * x).mean() + x.ravel().max()
