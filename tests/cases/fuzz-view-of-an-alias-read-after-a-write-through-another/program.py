import numpy as np

def f(A, s, t, M):
    acc = A
    q = acc[1]
    h = acc
    h[:, 1] += A @ [0.5, 0.25, 1.0]
    return np.sum(q)
