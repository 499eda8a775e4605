import numpy as np

def f(b):
    z = np.dot(b, b)
    p = z
    h = b
    h[0] *= p
    for i in range(3):
        b = 1
    return np.sum(h)
