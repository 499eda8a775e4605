import numpy as np


def f(x, s):
    d = {'w': x * s, 'b': np.sin(x)}
    d['w'] = d['w'] * s
    d['c'] = np.tanh(d['b'])
    out = d['w'] + d.get('c', 0.0) + d.get('missing', s ** 2)
    for key in d:
        out = out + 0.5 * d[key]
    return np.sum(out)
