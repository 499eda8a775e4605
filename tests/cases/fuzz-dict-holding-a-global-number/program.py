import numpy as np
W0 = 0.2

def f(s, v, w, M):
    acc = s
    acc -= v
    buf = {'w': W0, 'b': acc}
    buf['w'] = buf['w'] * w
    return np.sum(w)
