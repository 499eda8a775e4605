"""Containers as arguments and as working state: tuples, lists and dicts of arrays
(their gradients come back in the same structure), ``append``/``extend`` and dict item
writes inside loops."""

import numpy as np


def tuple_argument(pair):
    a, b = pair
    return np.sum(a * b) + np.sum(a ** 2)


def list_argument(arrays):
    total = 0.0
    for a in arrays:
        total = total + np.sum(np.tanh(a))
    return total * arrays[0][0]


def dict_argument(params):
    return np.sum(params["w"] ** 2) * params["scale"] + params["shift"]


def nested_structure(params):
    hidden = params["layers"][0] @ params["x"]
    out = params["layers"][1] @ np.tanh(hidden)
    return np.sum(out ** 2) + params["extra"][0] * params["extra"][1]


def dict_of_lists(params, x):
    for W, b in zip(params["weights"], params["biases"]):
        x = np.tanh(W @ x + b)
    return np.sum(x ** 2)


def unused_dict_entry(params, x):
    return np.sum(params["used"] * x)


def append_in_loop(x):
    values = []
    for i in range(len(x) - 1):
        values.append(x[i] * x[i + 1])
    return sum(values) + values[-1] ** 2


def extend_list(x, y):
    parts = [x[0]]
    parts.extend([y[0] * 2.0, x[1] * y[1]])
    parts.extend(np.sin(x))
    return sum(p ** 2 for p in parts)


def append_arrays_then_stack(x):
    rows = []
    for k in range(3):
        rows.append(np.cos(x * (k + 1)))
    return np.sum(np.stack(rows) ** 2)


def dict_writes_in_loop(x):
    cache = {}
    for i in range(len(x)):
        cache[i] = x[i] ** 2
    cache["total"] = sum(cache[i] for i in range(len(x)))
    return cache["total"] * cache[0]


def dict_accumulate(x):
    stats = {"sum": 0.0, "sq": 0.0}
    for value in x:
        stats["sum"] = stats["sum"] + value
        stats["sq"] = stats["sq"] + value ** 2
    n = len(x)
    return stats["sq"] / n - (stats["sum"] / n) ** 2


def dict_items_loop(params):
    total = 0.0
    for name, value in params.items():
        decay = 0.1 if name.startswith("bias") else 1.0
        total = total + decay * np.sum(value ** 2)
    return total


def dict_values_sum(params):
    return sum(np.sum(v * v) for v in params.values())


def list_item_overwrite(x):
    values = [x, x * 2.0, x * 3.0]
    values[1] = np.sin(values[0])
    return np.sum(values[0] * values[1] * values[2])


def tuple_result_unpacked(x):
    mean, spread = _moments(x)
    return mean * spread


def _moments(x):
    mean = np.mean(x)
    return mean, np.mean((x - mean) ** 2)


def list_pop_and_index(x):
    stack = [x[0], x[1] ** 2, x[2] ** 3]
    last = stack.pop()
    return last * stack[-1] + stack[0]
