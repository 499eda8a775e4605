"""srcgrad in ten lines: differentiate a plain NumPy function and read the gradient."""

import numpy as np

import srcgrad as sg


def model(w, x):
    h = np.tanh(x * w)
    for _ in range(3):
        h = h * w + np.sin(h)
    return np.sum(h ** 2)


dmodel = sg.grad(model)                 # generated Python source, compiled once
w, x = 0.5, np.linspace(-1.0, 1.0, 5)
print("gradient:", dmodel(w, x))
print(sg.source(dmodel))                # the gradient you got, as Python
