import numpy as np


def f(s, x):
    acc = {'w': 0.1, 'b': 0.43}
    acc['w'] = s * x
    total = 0.0
    for val in acc.values():
        total = total + np.sum(val ** 2)
    for key, val in acc.items():
        total = total + np.sum(np.sin(val))
    return total
