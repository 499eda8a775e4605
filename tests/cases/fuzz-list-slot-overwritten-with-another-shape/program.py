import numpy as np


def f(b, M):
    g = [np.concatenate([M[::2], np.ones(1)])]
    g += [b[1]]
    g[0] = g[1]
    return np.sum(g) + np.sum(M)
