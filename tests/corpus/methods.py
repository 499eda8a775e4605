"""Array methods and attributes in place of ``np.`` functions: reductions, shapes,
copies, casts and statistics, as people chain them."""

import numpy as np


def sum_mean_methods(m):
    return m.sum() * m.mean(axis=0).sum() + (m ** 2).mean()


def max_min_methods(m):
    return m.max(axis=1).sum() - m.min(axis=0).sum() + m.max()


def prod_method(x):
    return x.prod() + (x + 2.0).prod(keepdims=True).sum()


def dot_method(a, x):
    return a.dot(x).dot(a.dot(x))


def reshape_methods(x):
    m = x.reshape(2, 3)
    n = x.reshape((3, 2))
    return (m @ n).sum() + m.reshape(-1).dot(x)


def transpose_and_T(m):
    return (m.T @ m).trace() + m.transpose().sum(axis=0).dot(m.sum(axis=1))


def transpose_axes(t):
    return (t.transpose(1, 0, 2) ** 2 * np.arange(24).reshape(3, 2, 4)).sum()


def ravel_flatten(m):
    return m.ravel().dot(m.flatten()[::-1]) + m.flatten().sum()


def copy_then_write(x):
    y = x.copy()
    y[0] = y[0] * 3.0
    return (y * x).sum()


def astype_float(x):
    return (x.astype(np.float64) ** 2).sum() + x.astype(float).mean()


def clip_method(x):
    return (x.clip(-0.5, 0.5) * x).sum() + x.clip(min=0.0).sum()


def squeeze_method(x):
    column = x[:, None]
    return (column.squeeze() ** 3).sum() + column.squeeze(axis=1).prod()


def std_var_methods(m):
    return m.std() + m.var(axis=0).sum() + m.std(axis=1, ddof=1).sum()


def cumsum_method(x):
    return (x.cumsum() ** 2).sum() + x.cumsum(axis=0)[-1]


def shape_ndim_size(m):
    rows, cols = m.shape
    scale = 1.0 / m.size
    total = m.sum() * scale * m.ndim
    return total + (m[rows - 1, cols - 1] ** 2)


def shape_driven_loop(m):
    acc = np.zeros(m.shape[1])
    for i in range(m.shape[0]):
        acc = acc + m[i] * (i + 1)
    return (acc ** 2).sum() / len(m)


def chained_methods(m):
    return m.T.reshape(-1).clip(-1.0, 1.0).cumsum().max()


def normalise_rows(m):
    norms = np.sqrt((m ** 2).sum(axis=1, keepdims=True))
    unit = m / norms
    return (unit @ unit.T).sum()


def standardise(x):
    return (((x - x.mean()) / x.std()) ** 3).sum()
