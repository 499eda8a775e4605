"""Programs with an array result (checked through vjp)."""

import numpy as np


def elementwise(x):
    return np.sin(x) * x ** 2


def rotate(theta, v):
    c, s = np.cos(theta), np.sin(theta)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def matvec(a, x):
    return a @ np.tanh(x)


def running_sum(x):
    out = np.zeros(len(x))
    acc = 0.0
    for i in range(len(x)):
        acc = acc + x[i] ** 2
        out[i] = acc
    return out


def softmax(x):
    e = np.exp(x - np.max(x))
    return e / np.sum(e)


def row_means(m):
    return np.mean(m ** 2, axis=1)
