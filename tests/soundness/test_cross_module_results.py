"""A row write into a new copy whose row was given to a function of another module (a
unit of its own, not inlined): no run-time guard when the callee is proven to return only
new arrays and keep nothing, a guard (or a refusal) when it returns its argument, a view
of it, or may have kept it. Each program is exact in every mode against central finite
differences, or refused with a TransformError: never a wrong number."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.analysis.fresh_results import returns_fresh
from tests.soundness import cross_module_cells as cells
from tests.soundness.cross_module_cells import (
    fresh_cell,
    returns_argument,
    returns_kept,
    returns_list_repeat,
    returns_view,
)
from tests.soundness.oracle_modes import X, check_modes


def states_fresh(x):
    states = [np.outer(x, x)]
    h = x * 0.5
    w = np.concatenate((x, x * x))
    for t in range(3):
        s2 = states[t].copy()
        s2[0], s2[1] = fresh_cell(w, s2[0], s2[1], h)
        h = s2[0]
        states.append(s2)
    return np.sum(states[-1] * states[1]) + np.sum(h)


def states_argument(x):
    states = [np.outer(x, x)]
    for t in range(3):
        s2 = states[t].copy()
        h, c = returns_argument(x, s2[0], s2[1], x * 0.5)
        s2[1] = c
        s2[2] = h * x[t]   # h is the row s2[0] itself: unchanged by either write
        h[0] = x[1] ** 2   # a write into s2's row through the result
        states.append(s2)
    return np.sum(states[-1] * states[1])


def states_view(x):
    states = [np.outer(x, x)]
    for t in range(3):
        s2 = states[t].copy()
        h, c = returns_view(x, s2[0], s2[1], x * 0.5)
        s2[0] = c * x[t]   # changes h, a view of the row
        s2[2] = h * 2.0
        states.append(s2)
    return np.sum(states[-1] * states[1])


def states_kept(x):
    states = [np.outer(x, x)]
    for t in range(3):
        s2 = states[t].copy()
        h, c = returns_kept(x, s2[0], s2[1], x * 0.5)
        s2[0] = c * x[t]
        s2[2] = h * 2.0 + cells.KEPT[-1]
        states.append(s2)
    return np.sum(states[-1] * states[1])


@pytest.mark.parametrize("program", [states_fresh, states_argument, states_view,
                                     states_kept])
def test_exact_or_refused(program):
    for _ in range(2):
        try:
            check_modes(program, X.copy())
        except sg.TransformError:
            assert program is not states_fresh
            return


def test_the_guard_stays_where_the_result_is_a_view():
    assert "check_unshared" in sg.source(sg.grad(states_view)) \
        or "is_view_of" in sg.source(sg.grad(states_view))
    assert "check_unshared" not in sg.source(sg.grad(states_fresh))


@pytest.mark.parametrize("fn, proven", [
    (fresh_cell, True), (cells.squash, True), (returns_argument, False),
    (returns_view, False), (returns_kept, False), (cells.keep, False),
    (returns_list_repeat, False)])
def test_what_is_proven(fn, proven):
    assert returns_fresh(fn) is proven
