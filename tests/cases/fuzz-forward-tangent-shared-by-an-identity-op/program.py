import numpy as np


def f(A, b):
    g = A[1:] - 1.11
    A[:] *= np.tanh(b)
    return np.sum(g ** 2) + np.sum(A)
