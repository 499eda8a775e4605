import numpy as np


def helper0(p0):
    r = {'w': 0.1, 'b': 0.47}
    r['w'] = p0
    out = 0.0
    for key in r:
        out = out + r[key] * p0
    return out


def f(v, A):
    k = helper0(v)
    return k + np.sum(A)
