"""``sorted`` of any iterable, as Python sorts it: a dict (its keys), ``d.keys()``,
``d.items()``, ``d.values()``, a generator, a tuple, a list; with ``key=`` and
``reverse=``; both modes against central differences (``check_grads`` in autograd's
form), each iterable at order 1 and the sequence ones at order 2."""

import operator

import numpy as np
import pytest

from srcgrad.testing import check_grads


def by_keys(d):
    total = 0.0
    for i, k in enumerate(sorted(d)):
        total = total + np.sum(np.sin(d[k])) * (i + 1.0)
    return total


def by_key_view(d):
    return sum(np.sum(d[k] ** 2) * (i + 1.0) for i, k in enumerate(sorted(d.keys(), reverse=True)))


def by_items(d):
    total = 0.0
    for i, (_k, v) in enumerate(sorted(d.items(), key=operator.itemgetter(0))):
        total = total + np.sum(np.cos(v)) * (i + 2.0)
    return total


def by_values(d):
    ordered = sorted(d.values())
    return ordered[0] * 3.0 + ordered[-1] ** 2


def of_generator(x):
    ordered = sorted(x[i] * x[i] for i in range(len(x)))
    return ordered[0] + 2.0 * ordered[1] + 3.0 * ordered[2]


def of_tuple(x):
    ordered = sorted((x[2], x[0], x[1]), key=abs)
    return ordered[0] * ordered[1] + ordered[2] ** 3


def of_list(x):
    ordered = sorted([np.sin(x[0]), x[1], x[2] * 2.0], reverse=True)
    return ordered[0] - ordered[2] * ordered[1]


D = {"b": np.array([0.3, -0.4]), "a": np.array([1.2, 0.5]), "c": np.array([-0.7, 0.1])}
S = {"b": 0.3, "a": -1.2, "c": 0.8}
X = np.array([0.5, -1.3, 0.9])
CASES = [(by_keys, D, 1), (by_key_view, D, 1), (by_items, D, 1), (by_values, S, 1),
         (of_generator, X, 2), (of_tuple, X, 2), (of_list, X, 2)]


@pytest.mark.parametrize("f, x, order", CASES, ids=[c[0].__name__ for c in CASES])
def test_sorted_iterables(f, x, order):
    np.random.seed(0)
    check_grads(f, modes=["fwd", "rev"], order=order)(x)
    check_grads(f, modes=["fwd", "rev"], order=order)(x)   # called twice
