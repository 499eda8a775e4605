import numpy as np
BIAS = 0.7

def helper0(p0, p1):
    q = p0 - p1
    q[:, 0] += p0[:, 1]
    return (p1, 0.1)

def f(A, t, x, v):
    buf, mid = helper0(A, BIAS)
    return np.sum(A)
