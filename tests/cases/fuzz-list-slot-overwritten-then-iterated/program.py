import numpy as np


def f(b, M):
    g = [M * 2.0, b[0]]
    h = g[0]
    g[0] = g[1] * b[1]
    return np.sum(h) + sum(np.sum(item) for item in g)
