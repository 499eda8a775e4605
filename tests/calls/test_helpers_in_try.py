"""A helper holding a loop, a ``try`` or a ``with``, called inside the body of a ``try``
with handlers: the helper is compiled as its own unit there (not inlined: the reverse
mode differentiates a call in a ``try`` body, not a loop or a nested ``try``), on the
path that completes and the path where the helper raises part-way; reverse, forward and
hvp against central finite differences, each derivative called twice."""

import numpy as np
import pytest

import srcgrad as sg

T = np.array([1.0, 0.5, -1.0])


def raiser_loop(u, lim):
    total = 0.0
    for i in range(len(u)):
        total = total + np.tanh(u[i])
        if total > lim:
            raise ValueError("over")
    return total


def safe(u):
    try:
        return np.sum(np.tanh(u))
    except ValueError:
        return 0.0


def loop_in_try(v):
    try:
        r = raiser_loop(v, 5.0)
    except ValueError:
        r = np.sum(v ** 2)
    return r * v[0]


def loop_raising_in_try(v):
    try:
        r = raiser_loop(v * 3.0, 0.2)
    except ValueError:
        r = np.sum(np.sin(v) ** 2)
    return r * v[1]


def try_in_try(v):
    try:
        r = safe(v) * v[2]
    except KeyError:
        r = 0.0
    return r


def _fd(f, v, h=1e-6):
    return np.array([(f(v + h * e) - f(v - h * e)) / (2 * h) for e in np.eye(v.size)])


@pytest.mark.parametrize("f", [loop_in_try, loop_raising_in_try, try_in_try])
def test_in_every_mode(f):
    v = np.array([0.3, -0.2, 0.5])
    want = _fd(f, v)
    want_hvp = _fd(sg.grad(f), v).T @ T
    for _ in range(2):
        np.testing.assert_allclose(sg.grad(f)(v.copy()), want, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(sg.jvp(f)(v.copy(), T)[1], want @ T, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(sg.hvp(f)(v.copy(), T), want_hvp, rtol=1e-5, atol=1e-7)
