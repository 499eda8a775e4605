import numpy as np


def f(t, s):
    u = np.copy(t)
    q = u[1:]
    q *= s
    v = u[0, :2]
    v[1] = np.tanh(v[0]) * s
    c = u[0, 2]
    c *= s
    return 1.5 * np.sum(u ** 2) + np.sum(q) + c
