import numpy as np


def f(w, t):
    w += (-0.39) ** 2
    r = 0.0
    coefficients = [(-1.21) ** 3, 0.5, 2.0]
    for i in range(3):
        r = r + coefficients[i] * t[i]
    return w * r + np.sum(t ** 2) * (-2) ** 2
