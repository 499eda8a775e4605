import numpy as np


def f(x):
    out = {'w': x[1], 'b': np.mean(x)}
    for key in out:
        acc = out[key]
    for i in range(len(x)):
        q = {'w': acc, 'b': 1.0}
        for key in q:
            pass
    return np.sum(acc)
