"""A call srcgrad cannot see into, given values being differentiated and whose result is
unused, may store them anywhere it can reach (a global list, an attribute), and the
function may read them back without their derivative. Such a call is refused, never run
as if it had no effect. Oracle: central differences (3 x**2), never what srcgrad gave."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import TransformError

X = np.array([0.3, 0.7, 1.1])
LOG = []


class Recorder:
    def record(self, value):
        LOG.append(value)


RECORDER = Recorder()


def stored_then_read_through_a_global(x):
    y = x * x
    RECORDER.record(y)
    return np.sum(LOG[-1] * x)


def test_a_value_stored_by_an_unseen_call_and_read_back_is_refused_not_a_wrong_gradient():
    f = stored_then_read_through_a_global
    with pytest.raises(TransformError, match="record"):
        sg.grad(f)(X)
    try:
        _, directional = sg.jvp(f)(X, np.ones(3))
    except TransformError:
        return
    assert directional == pytest.approx(np.sum(3 * X ** 2), rel=1e-6)
