import numpy as np
OFFSET = 1.25

def f(t, b):
    for i in range(4):
        y = OFFSET
        y -= y
    return 0.5
