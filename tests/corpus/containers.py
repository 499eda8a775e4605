"""Tuples, lists, unpacking, indexing, slicing, and writes into arrays."""

import numpy as np


def tuple_unpack(x, y):
    a, b = x * y, x + y
    return a * b


def swap(x, y):
    x, y = y, x * 2.0
    return x * y + x


def returns_pair(x):
    return x * 2.0, x * x


def uses_pair(x):
    a, b = returns_pair(x)
    return a + b * a


def list_building(x):
    parts = [x, x * x, np.sin(x)]
    return parts[0] * parts[1] + parts[2]


def tuple_index(x):
    t = (x, 2.0 * x, x ** 3)
    return t[0] + t[2] * t[1]


def array_index(x):
    return x[0] * x[1] + x[2] ** 2 - x[-1]


def matrix_index(m):
    return m[0, 1] * m[1, 0] + m[1, 1]


def slice_read(x):
    return np.sum(x[1:3] * x[:2]) + np.sum(x[::2])


def row_and_column(m):
    return np.sum(m[0] * m[:, 1]) + np.sum(m[1:, :2] ** 2)


def item_write(x):
    y = np.zeros(3)
    y[0] = x[0] * 2.0
    y[1] = x[1] ** 2
    y[2] = y[0] * y[1]
    return np.sum(y * y)


def slice_add(x):
    y = x.copy()
    y[1:3] += x[:2] * 3.0
    return np.sum(y ** 2)


def write_in_loop(x):
    y = np.zeros(4)
    for i in range(4):
        y[i] = x[i] * (i + 1.0)
    return np.sum(np.sin(y))


def cumulative_write(x):
    out = np.zeros(len(x))
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = out[i - 1] * 0.5 + x[i]
    return np.sum(out ** 2)


def overwrite_input_item(x):
    x = x * 1.0
    x[0] = x[1] * x[2]
    return np.sum(x ** 3)


def fancy_index(x):
    idx = np.array([0, 2, 2])
    return np.sum(x[idx] ** 2)


def boolean_index(x):
    return np.sum(x[x > 0] ** 2)


def stack_parts(x, y):
    return np.sum(np.stack([x, y * 2.0]) ** 2)


def concatenate_parts(x):
    z = np.concatenate([x, x[:2] * 3.0])
    return np.sum(z * z)


def tuple_of_outputs(x):
    pair = (np.sum(x), np.prod(x))
    s, p = pair
    return s * p
