"""Writes into a new object (``s2 = s.copy()``, ``np.zeros``, a list display) need no
run-time guard against names the object has not reached (``analysis.fresh``), and keep
it against those it has: each program is exact in every mode against finite differences
or refused with a TransformError, never a wrong number."""

import numpy as np
import pytest

import srcgrad as sg
from tests.soundness.oracle_modes import X, check_modes


def states_in_a_growing_list(x):
    states = [np.outer(x, x)]
    for t in range(3):
        s2 = states[t].copy()
        for i in range(0, 3, 2):
            s2[i] = np.tanh(states[t][i] * x[t])
            s2[i + 1 - i // 2] = s2[i] * x[0]
        states.append(s2)
    return np.sum(states[-1] * states[1])


def buffers_filled_then_kept(x):
    kept = []
    for t in range(3):
        out = np.zeros(3)
        for i in range(3):
            out[i] = x[i] * (t + 1.0) + x[t]
        kept.append(out)
    return np.sum(kept[0] * kept[2]) + kept[1][0]


def list_display_written(x):
    a = [x[0], x[1]]
    a[0] = a[1] * x[2]
    b = a
    return b[0] * a[1]


def held_by_a_list_before_the_write(x):
    s2 = x.copy()
    keep = [s2]
    s2[0] = x[1] ** 2   # changes keep[0]
    return np.sum(keep[0] * x)


def held_through_two_containers(x):
    s2 = x * 2.0
    inner = [1.0]
    inner.append(s2)
    outer = [inner]
    s2[1] = x[0] ** 3   # changes outer[0][1]
    return np.sum(outer[0][1] * x)


def viewed_before_the_write(x):
    s2 = x.copy()
    v = s2[0:2]
    s2[0] = x[2] ** 2
    return np.sum(v * x[0:2])


def fresh_on_one_path_only(x):
    keep = [x * 1.0]
    if x[0] > 0.0:
        s2 = x.copy()
    else:
        s2 = keep[0]
    s2[1] = x[2] ** 2   # changes keep[0] when x[0] <= 0
    return np.sum(keep[0] * s2)


def reached_in_an_earlier_iteration(x):
    keep = []
    s2 = x.copy()
    for t in range(2):
        s2[t] = x[t] * x[2]   # the second write changes keep[0]
        keep.append(s2)
    return np.sum(keep[0] * x)


EXACT = [states_in_a_growing_list, buffers_filled_then_kept, list_display_written,
         viewed_before_the_write]
GUARDED = [held_by_a_list_before_the_write, held_through_two_containers,
           fresh_on_one_path_only, reached_in_an_earlier_iteration]


@pytest.mark.parametrize("f", EXACT, ids=lambda f: f.__name__)
def test_writes_into_new_objects_are_exact(f):
    assert np.any(check_modes(f) != 0.0)


@pytest.mark.parametrize("f", [states_in_a_growing_list, buffers_filled_then_kept],
                         ids=lambda f: f.__name__)
def test_writes_into_new_objects_are_not_guarded(f):
    gradient = sg.grad(f)
    gradient(X.copy())
    assert "check_unshared" not in sg.source(gradient)


@pytest.mark.parametrize("f", GUARDED, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [X, -X], ids=["positive", "negative"])
def test_writes_into_objects_other_names_reach_are_exact_or_refused(f, x):
    try:
        check_modes(f, x)
    except sg.TransformError as error:
        assert "writing into" in str(error)
