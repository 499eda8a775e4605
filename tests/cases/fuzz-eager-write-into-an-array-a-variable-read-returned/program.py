import numpy as np

def f(w, v, A):
    y = np.array(w)
    g = y
    w, g = (y, g)
    y[:] *= sum((w[kk] for kk in range(3)))
    return np.sum(w)
