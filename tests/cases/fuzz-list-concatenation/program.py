import numpy as np


def f(t, v):
    u = [t, 0.5, t]
    out = np.zeros(3)
    for item in u:
        out = out + item * v
    h = [np.ones(2)]
    h += [np.stack([out, out]).mean(axis=0)]
    h = h + [np.tanh(v)]
    mid = 0.0
    for item in h:
        mid = mid + np.sum(item ** 2)
    return mid + np.sum(h[1])
