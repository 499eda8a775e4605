"""Scalar and elementwise arithmetic, written the way people write it."""

import math

import numpy as np


def polynomial(x):
    return 3.0 * x ** 3 - 2.0 * x ** 2 + x - 7.0


def rational(x, y):
    return (x * y + 1.0) / (x - y) - y / x


def negate_twice(x):
    y = -x
    z = -(y * y) + -3.0 * x
    return z


def power_of_variable(x, p):
    return x ** p + p ** 2.0


def elementwise_chain(x):
    return np.sum(np.exp(-x * x) * np.sin(3.0 * x) + np.log1p(x ** 2))


def softplus_sum(x):
    return np.sum(np.log(1.0 + np.exp(x)))


def mixed_scalar_array(a, x):
    return np.sum(a * x + a ** 2 / (1.0 + x ** 2))


def reused_value(x):
    s = np.sin(x)
    return s * s + 2.0 * s + s / (1.0 + s * s)


def reassigned(x):
    y = x * 2.0
    y = y * y
    y = y + x
    y = np.tanh(y)
    return y


def augmented_ops(x, w):
    y = x
    y += w
    y *= x
    y -= 0.5 * w
    y /= 2.0
    y **= 2
    return y


def comparison_guard(x):
    if x > 0.5 and x < 3.0:
        return x * x
    return -x


def chained_comparison(x, lo):
    if lo < x < 10.0:
        return x * lo
    return x + lo


def ternary(x):
    y = x * x if x > 0 else -x
    return y * 3.0


def integer_count(x):
    n = len(x)
    positives = 0
    for v in x:
        if v > 0:
            positives += 1
    return np.sum(x ** 2) * positives / n


def boolean_mask(x):
    mask = x > 0
    return np.sum(x * mask) + np.sum(np.where(mask, x ** 2, 0.0))


def integer_exponent(x):
    k = 3
    return np.sum(x ** k) + np.sum(x ** (k - 1))


def floor_division_index(x):
    middle = len(x) // 2
    return x[middle] * x[0] + x[-1]


def math_functions(x):
    return math.sin(x) * math.exp(-x) + math.sqrt(1.0 + x * x) + math.log(2.0 + x)


def math_more(x, y):
    return math.tanh(x * y) + math.atan2(y, x) + math.hypot(x, y) + math.pow(x, 2.5)


def math_constants(r):
    area = math.pi * r ** 2
    return area + math.e * r


def builtin_abs_max(x, y):
    return abs(x - y) + max(x, y) * min(x, 2.0 * y)


def float_conversion(x):
    y = float(x) * 2.0
    return y * y + round(3.7)


def modulo(x):
    return (x % 1.5) * x
