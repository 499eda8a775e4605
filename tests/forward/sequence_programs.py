"""Lists and tuples built from an array argument, then given to NumPy functions (for
tests/forward/test_sequence_operands.py)."""

import numpy as np


def sum_of_squares(x):
    return sum([xi ** 2 for xi in x])


def array_of_squares(x):
    return np.sum(np.array([xi ** 2 for xi in x]))


def square_of_a_comprehension(x):
    return np.sum(np.square([xi for xi in x]))


def pick_from_a_sum_of_lists(x):
    return np.add([xi for xi in x], [2 * xi for xi in x])[2]


def pick_from_a_scaled_list(x):
    items = [xi for xi in x]
    return np.multiply(items, 3)[0]


def negated_list(x):
    return np.sum(np.negative([xi for xi in x]) * x)


def divided_list(x):
    return np.sum(np.divide([xi ** 2 for xi in x], 3.0))


def clipped_list(x):
    return np.sum(np.clip([xi for xi in x], -1.0, 1.0) * x)


def power_of_a_tuple(x):
    return np.sum(np.power((x[0], x[1]), 3))


def product_of_two_lists(x):
    return np.sum(np.multiply([xi for xi in x], [np.sin(xi) for xi in x]))


def list_pop_and_stack(x):
    items = [xi * 2.0 for xi in x]
    last = items.pop()
    return last * np.sum(np.stack(items))


def rows_of_a_matrix(m):
    return np.sum(np.square([row * 2.0 for row in m]))
