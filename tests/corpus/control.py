"""Branches and loops: if/elif/else, for, while, break, continue, early return."""

import numpy as np


def piecewise(x):
    if x < -1.0:
        y = -x - 0.5
    elif x < 1.0:
        y = 0.5 * x * x
    else:
        y = x - 0.5
    return y * y


def branch_on_data(x, w):
    total = 0.0
    if np.sum(x) > 0:
        total = np.sum(x * w)
    else:
        total = np.sum(x / w)
    return total


def branch_without_else(x):
    y = x * 2.0
    if x > 0:
        y = y * x
    return y


def nested_branches(x, y):
    if x > 0:
        if y > 0:
            z = x * y
        else:
            z = x - y
    else:
        z = x * x + y
    return z


def range_loop(x):
    acc = 0.0
    for i in range(4):
        acc = acc + x ** i / (i + 1)
    return acc


def range_loop_with_start_step(x):
    acc = 1.0
    for k in range(1, 7, 2):
        acc = acc * (1.0 + x / k)
    return acc


def loop_over_array(x):
    total = 0.0
    for v in x:
        total = total + v * v * np.sin(v)
    return total


def loop_over_list(a, b):
    total = 0.0
    for value in [a, b, a * b]:
        total = total + np.tanh(value)
    return total


def loop_over_rows(m):
    total = 0.0
    for row in m:
        total = total + np.sum(row) ** 2
    return total


def recurrence(w, x):
    h = x
    for _ in range(5):
        h = np.tanh(w * h + 0.1)
    return h


def nested_loops(x):
    acc = 0.0
    for i in range(3):
        for j in range(2):
            acc = acc + x[i] * x[j] * (i + j + 1)
    return acc


def while_halving(x):
    steps = 0
    while x > 1.0:
        x = x / 2.0
        steps += 1
    return x * x + steps


def while_newton_sqrt(a):
    x = a
    while abs(x * x - a) > 1e-10:
        x = 0.5 * (x + a / x)
    return x


def while_with_counter(x):
    i = 0
    y = x
    while i < 4:
        y = y * np.cos(y)
        i = i + 1
    return y


def loop_break(x):
    acc = 0.0
    for i in range(10):
        acc = acc + x * i
        if acc > 5.0:
            break
    return acc


def loop_continue(x):
    total = 0.0
    for i in range(6):
        if i % 2 == 0:
            continue
        total = total + x[i] ** 2
    return total


def early_return_in_loop(x):
    acc = 0.0
    for v in x:
        acc = acc + v
        if acc > 1.5:
            return acc * acc
    return acc


def early_return_in_branch(x):
    if x > 2.0:
        return x ** 3
    y = x * x
    if y < 0.5:
        return y + x
    return y * x


def while_break(x):
    y = x
    while True:
        y = y * 1.5
        if y > 4.0:
            break
    return y


def loop_else(x):
    acc = x
    for _ in range(3):
        acc = acc * x
        if acc > 100.0:
            break
    else:
        acc = acc + 1.0
    return acc


def loop_overwrites_array(x):
    y = x
    for _ in range(3):
        y = np.sin(y) * x
    return np.sum(y)
