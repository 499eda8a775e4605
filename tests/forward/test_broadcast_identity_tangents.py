"""``acc = c + t`` with ``c`` a number: the tangent is ``t_dot`` itself when no broadcast
is needed, while ``acc`` is a new array. A later write into ``acc`` writes into its
tangent, which must not be ``t_dot`` (fuzz seeds 9603836, 9605416: the jvp of
``np.sum(t)`` came out changed by the write). Checked by jvp against central differences
along a random direction, and jvp's tangent argument left as the caller gave it."""

import numpy as np
import pytest

import srcgrad as sg

OFFSET = 0.1


def offset_then_written(t):
    acc = OFFSET + t
    acc[:, 0] += t @ np.array([0.5, 0.25, 1.0])
    return np.sum(t) + np.sum(acc ** 2)


def minus_then_written(t):
    q = t - 0.7
    q[:, 0] += t[:, 1]
    return np.sum(t * t) + np.sum(q)


def written_in_a_helper(t):
    def shift(p):
        q = p + 2.0
        q[0] *= 3.0
        return q
    return np.sum(shift(t)) + np.sum(np.sin(t))


@pytest.mark.parametrize("f", [offset_then_written, minus_then_written, written_in_a_helper])
def test_jvp_against_central_differences(f):
    rng = np.random.default_rng(3)
    t = rng.standard_normal((2, 3))
    v = rng.standard_normal((2, 3))
    v_given = v.copy()
    value, tangent = sg.jvp(f)(t, v)
    eps = 1e-6
    expected = (f(t + eps * v) - f(t - eps * v)) / (2 * eps)
    assert np.isclose(value, f(t))
    assert np.isclose(tangent, expected, rtol=1e-6, atol=1e-8)
    assert np.array_equal(v, v_given)
