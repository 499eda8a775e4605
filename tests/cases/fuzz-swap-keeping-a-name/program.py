import numpy as np


def f(s, t, b):
    if s.mean() <= -0.91:
        pass
    else:
        b, t = b, s.T @ np.ones(2)
    t, b = t, b * 2.0
    return np.sum(b) + np.sum(np.tanh(t))
