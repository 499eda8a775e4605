import numpy as np
OFFSET = 0.1

def f(t, A, w, M):
    acc = OFFSET + t
    acc[:, 0] += t @ [0.5, 0.25, 1.0]
    return np.sum(t)
