import numpy as np


def f(s, b):
    r = {'w': s.sum(), 'b': np.sum(s ** 2)}
    r['w'] = np.sum([np.sin(el) for el in b])
    parts = []
    for el in b:
        parts.append(el * s[0])
    total = np.mean(parts) + np.sum(np.stack(parts))
    return total + sum(val for val in r.values())
