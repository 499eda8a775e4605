import numpy as np


def f(w, s):
    mid = np.array(w)
    y = mid.T
    r = mid[1]
    e = mid[0, 1]
    mid *= np.sum(w) * s
    mid[0] = np.sin(mid[1]) * s
    return 0.5 * np.sum(y * y) + np.sum(r) * s + e
