"""The run-time guards of generated code cost the same per operation however long the
run: for each guard kind, doubling a loop's trip count (or a sequence's length) at most
doubles the Python and C calls of one gradient (counted under ``sys.setprofile``: no
timing). A guard that walked a container growing with the loop (the ADBench LSTM's list
of states, before each row write) made the count grow quadratically."""

import numpy as np
import pytest

import srcgrad as sg
from benchmarks import guard_scaling
from tests.soundness.cross_module_cells import fresh_cell


@pytest.mark.parametrize("name", list(guard_scaling.PROGRAMS))
def test_doubling_the_trip_count_at_most_doubles_the_calls(name):
    small, large = guard_scaling.call_count(name, 32), guard_scaling.call_count(name, 64)
    assert large <= 2.1 * small, (small, large)


def cell_from_another_module(x, n):
    """ADBench's LSTM shape with the cell imported (a unit of its own, not inlined): each
    new state's rows are written from the cell's results, and a row is given to the next
    cell call; the cell is proven to return new arrays, so no write is guarded against
    the growing list."""
    states = [np.outer(x, x)]
    w = np.concatenate((x, x * x))
    h = x * 0.5
    for t in range(n):
        s2 = states[t].copy()
        s2[0], s2[1] = fresh_cell(w, s2[0], s2[1], h)
        h = s2[0]
        states.append(s2)
    return np.sum(states[-1]) + np.sum(h)


def test_a_cell_from_another_module_costs_the_same_per_step():
    derivative = sg.grad(cell_from_another_module, wrt=0)
    x = np.random.default_rng(0).uniform(0.5, 1.0, 3)
    small = guard_scaling.calls_of(derivative, (x, 4), (x, 32))
    large = guard_scaling.calls_of(derivative, (x, 4), (x, 64))
    assert large <= 2.1 * small, (small, large)
