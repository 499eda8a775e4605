import numpy as np

def f(s):
    u = np.array(0.2)
    out = [u, u.mean()]
    out.append(s[1])
    t = 0.0
    for item in out:
        t = t + item
    return t
