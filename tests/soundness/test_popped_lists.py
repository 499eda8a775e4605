"""A list whose items are popped in the forward sweep: the cotangent of every item it
held reaches the argument it was copied from, whatever the list holds afterwards.

``_sg.dense(ds, s)`` after the reversed loop read ``s`` as it was *then* (emptied by
the pops) and zipped the cotangent down to nothing: ``sg.grad(f, 0)`` returned ``[]``.
"""

import numpy as np
import pytest

import srcgrad as sg

PAIRS = [(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)]


def pop_each(s, x):
    s = list(s)
    t = 0.0
    for _ in range(3):
        p = s.pop()
        t = t + p[0] * x
    return t


def pop_front_while(s, x):
    s = list(s)
    t = 0.0
    while s:
        p = s.pop(0)
        t = t + np.sin(p[0] * x)
    return t


def pop_one_use_rest(s, x):
    s = list(s)
    q = s.pop()
    return q[0] * x + s[0][1] * x ** 2


def both_fields(s, x):
    s = list(s)
    t = 0.0
    for _ in range(2):
        p = s.pop()
        t = t + p[0] * x * p[1]
    return t


def _flat(pairs):
    return np.array([v for pair in pairs for v in pair], dtype=float)


def _pairs(flat):
    return [(float(flat[i]), float(flat[i + 1])) for i in range(0, len(flat), 2)]


def _finite_differences(f, pairs, x, eps=1e-6):
    flat = _flat(pairs)
    out = np.zeros_like(flat)
    for i in range(len(flat)):
        up, down = flat.copy(), flat.copy()
        up[i] += eps
        down[i] -= eps
        out[i] = (f(_pairs(up), x) - f(_pairs(down), x)) / (2 * eps)
    return out


@pytest.mark.parametrize("f", [pop_each, pop_front_while, pop_one_use_rest, both_fields])
def test_gradient_of_popped_items(f):
    got = sg.grad(f, 0)(PAIRS, 0.5)
    assert len(got) == len(PAIRS)
    flat = np.array([float(v) for item in got for v in item])
    np.testing.assert_allclose(flat, _finite_differences(f, PAIRS, 0.5), atol=1e-7)


@pytest.mark.parametrize("f", [pop_each, pop_front_while, pop_one_use_rest, both_fields])
def test_gradient_of_the_other_argument(f):
    eps = 1e-6
    numeric = (f(PAIRS, 0.5 + eps) - f(PAIRS, 0.5 - eps)) / (2 * eps)
    assert sg.grad(f, 1)(PAIRS, 0.5) == pytest.approx(numeric, abs=1e-7)
