"""Functions calling functions: helpers, keyword and default arguments, recursion,
globals and closure cells."""

import numpy as np

SCALE = 1.5
OFFSETS = np.array([0.1, -0.2, 0.3])


def square(x):
    return x * x


def affine(x, w, b=0.5):
    return w * x + b


def sum_of_squares(x):
    return np.sum(square(x))


def uses_defaults(x):
    return affine(x, 2.0) + affine(x, w=3.0, b=1.0)


def keyword_call(x, w):
    return affine(b=x, w=w, x=x) ** 2


def helper_chain(x):
    y = square(x)
    z = affine(y, x)
    return square(z)


def power(x, n):
    if n == 0:
        return 1.0
    return x * power(x, n - 1)


def recursive_power(x):
    return power(x, 4)


def reads_global(x):
    return SCALE * np.sum(x + OFFSETS)


def calls_global_reader(x):
    return reads_global(x) * x[0]


def make_scaled(scale, shift):
    def scaled(x):
        return np.sum(scale * x ** 2 + shift)

    return scaled


scaled_by_three = make_scaled(3.0, np.array([1.0, 2.0, 3.0]))


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def logistic_loss(w, x, y):
    p = sigmoid(x @ w)
    return -np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))


def layer(w, x):
    return np.tanh(w @ x)


def two_layer(w1, w2, x):
    h = layer(w1, x)
    return np.sum(layer(w2, h) ** 2)


def helper_in_loop(x):
    acc = 0.0
    for i in range(3):
        acc = acc + square(x * i + acc)
    return acc


def helper_in_branch(x):
    if x > 0:
        y = square(x)
    else:
        y = affine(x, 2.0)
    return y
