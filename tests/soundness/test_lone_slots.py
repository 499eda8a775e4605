"""A write through an item of a list, written back into its slot, skips the walk over the
other slots only where each slot was stored once as a new array owning its memory
(``normalize.lone_slots``: proven from the source, the ownership checked as it runs).
Every program is exact in every mode against finite differences or refused with a
TransformError; the slots that share storage are refused as before."""

import numpy as np
import pytest

import srcgrad as sg
from tests.soundness.oracle_modes import X, check_modes


def new_rows(x):
    rows = []
    for t in range(3):
        rows.append(x * (t + 1.0))
        row = rows[t]
        row[0] = np.sin(row[1]) * x[2]
    return np.sum(rows[-1] * rows[0])


def rows_rebound_per_pass(x):
    total = 0.0
    for k in range(2):
        rows = []
        for t in range(2):
            rows.append(np.exp(x * (t + k)))
            row = rows[t]
            row[1] = row[0] * x[2]
        total = total + np.sum(rows[0] * rows[1])
    return total


def appended_twice(x):
    rows = []
    a = x * 2.0
    rows.append(a)
    rows.append(a)   # the same array in two slots
    row = rows[0]
    row[0] = x[1] ** 2   # changes rows[1]
    return np.sum(rows[1] * x)


def a_view_appended(x):
    rows = []
    rows.append(x * 2.0)
    rows.append(rows[0][1:])   # a view of slot 0
    row = rows[0]
    row[1] = x[2] ** 3   # changes rows[1]
    return np.sum(rows[1] * x[1:])


def a_list_holding_a_view(x):
    rows = []
    rows.append(x * 2.0)
    head = rows[0][0:2]
    rows.append([head])   # a new list, but holding a view of slot 0 (seen as it runs)
    row = rows[0]
    row[0] = x[2] ** 2   # changes rows[1][0]
    return np.sum(rows[1][0] * x[0:2])


def bound_before_the_loop(x):
    rows = []
    a = x * 2.0
    for _ in range(2):
        rows.append(a)   # one append statement, the same array each pass
    row = rows[0]
    row[2] = x[0] * x[1]   # changes rows[1]
    return np.sum(rows[1] * x)


def given_to_a_helper(x):
    rows = []
    rows.append(x * 2.0)
    _extend(rows, x)
    row = rows[0]
    row[0] = x[1] * x[2]
    return np.sum(rows[0] * rows[1])


def _extend(rows, x):
    rows.append(np.cos(x))


ALONE = [new_rows, rows_rebound_per_pass]
SHARED = [appended_twice, a_view_appended, a_list_holding_a_view, bound_before_the_loop,
          given_to_a_helper]


@pytest.mark.parametrize("f", ALONE, ids=lambda f: f.__name__)
def test_new_arrays_in_their_own_slots_are_exact_without_a_walk(f):
    assert np.any(check_modes(f) != 0.0)
    gradient = sg.grad(f)
    gradient(X.copy())
    assert "alone=" in sg.source(gradient)


@pytest.mark.parametrize("f", SHARED, ids=lambda f: f.__name__)
def test_slots_that_may_share_storage_are_exact_or_refused(f):
    try:
        check_modes(f)
    except sg.TransformError as error:
        assert "writing into" in str(error)
