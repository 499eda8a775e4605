"""Functions of another module (so they are compiled as callees, not inlined) that
build a tuple and take one apart, for tests/calls/test_tuples_passed_whole.py."""

import numpy as np


def make(x):
    s = x
    for _ in range(2):
        s = s * x
    return (s, np.sin(x) * 2.0)


def use(t, k):
    a = t[0]
    for _ in range(2):
        a = a * t[1] + k
    return a
