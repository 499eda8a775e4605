import numpy as np


def f(w, b):
    out = b
    np.multiply(b, w, out=out)
    return np.sum(out ** 2)
