"""Scalar programs whose gradients the compiler writes with stacks, restores and in-place
helpers, for the reverse-over-reverse tests."""

import numpy as np

import srcgrad as sg


def cube(x):
    return x ** 3


def poly_loop(x):
    """x**4 + x**2 + x + 1, built by a for loop that overwrites ``y``."""
    y = x
    for _ in range(3):
        y = y * x + 1.0
    return y


def sine_while(x):
    y = x
    n = 0
    while n < 4:
        y = np.sin(y) + 0.5 * x
        n = n + 1
    return y


def branches(x):
    if x > 1.0:
        y = x ** 3
    else:
        y = np.exp(x) * x
    return y


def early_return(x):
    if x < 0.0:
        return x * x
    y = np.sin(x)
    y = y * x
    return y


def subscripts(x):
    a = np.array([x, 2.0 * x, 1.0])
    a[1] = a[0] * a[1]
    a[2] = np.sin(a[1]) + a[2]
    return np.sum(a ** 2)


def loop_subscripts(x):
    a = np.zeros(4)
    a[0] = x
    for i in range(1, 4):
        a[i] = np.tanh(a[i - 1]) * x
    return a[3] + np.sum(a)


def helper(a, b):
    return a * np.sin(b)


def calls(x):
    y = helper(x, x)
    z = helper(y, 2.0)
    return z + x * x


def calls_in_loop(x):
    total = 0.0
    y = x
    for _ in range(3):
        y = helper(y, x)
        total = total + y
    return total


def list_stack(x):
    """2 (x + x**2 + x**3) through appends and pops."""
    values = []
    for i in range(3):
        values.append(x ** (i + 1))
    total = 0.0
    while len(values) > 0:
        total = total + values.pop() * 2.0
    return total


def list_pop_front(x):
    """x * (3 x) * x**2 = 3 x**4, reading items popped from the front."""
    items = [x, 3.0 * x, x * x]
    first = items.pop(0)
    second = items.pop(0)
    return first * second * items[0]


def list_slot_overwritten(x):
    """A list item read, then overwritten: the cotangent list is accumulated item by item
    in the second derivative (not concatenated)."""
    items = [x * 2.0, np.sin(x)]
    first = items[0]
    items[0] = items[1] * x
    return items[0] * first + items[1]


def vector_rnn(x, w):
    h = x
    for _ in range(3):
        h = np.tanh(h * w + x)
    return np.sum(h ** 2)


def separable(x):
    return np.sum(np.sin(x) * x ** 2)


CUBE_JVP = sg.jvp(cube).unit.jvp


def cube_slope(x):
    """The derivative of ``cube`` by forward mode: 3 x**2."""
    _, slope = CUBE_JVP(x, 1.0)
    return slope


def read_then_grow(a, b):
    """A list read before it grows: the read's cotangent must reach ``a``."""
    items = []
    items.append(a)
    first = items[0]
    items.append(b)
    return first * 2.0


def insert_in_place(x):
    items = [1.0]
    items.insert(0, x)
    return items[0] * items[1]


def copy_into(x):
    buffer = np.zeros(2)
    np.copyto(buffer, x)
    return np.sum(buffer)
