import numpy as np


def f(x, s):
    d = {'w': x * s, 'b': np.sin(x)}
    out = 0.0
    for key, value in d.items():
        out = out + np.sum(value ** 2)
    return out
