"""Do srcgrad's run-time guards cost the same per operation however long the run? One
program per guard kind that generated code runs, each with a loop whose trip count (or a
sequence length) is doubled; the cost of one gradient, counted as Python and C calls
under ``sys.setprofile`` (deterministic) and timed, at n and 2n. A guard that walks a
container growing with the loop (a list of every state) makes the ratio approach 4:

    python -m benchmarks.guard_scaling [--n 64]

| program | guard the generated code runs in the loop |
|---|---|
| states_list | none left: row writes into a new copy later appended to a growing list |
|   | (ADBench's LSTM: ``s2 = s.copy(); s2[i] = h``); ``check_unshared`` walked the list |
| shared_item | ``check_unshared``: a write into one item of a list while another is live |
| array_view | ``is_view_of`` (array base): a write through a slice, written back |
| list_slot | ``is_view_of`` (list slot): a write through an item of a growing list, written |
|   | back; no walk over the other slots, each a new array stored once (``lone_slots``) |
| in_place | ``updates_in_place``: ``z += v`` through an alias |
| argument_copy | ``private_copy``: the function writes into its argument, of length n |
| attribute | ``check_array_attribute``: ``.shape`` read in the loop |
| argument_list | ``check_array_types``: a list of n arrays as the argument |
"""

from __future__ import annotations

import sys
import time

import numpy as np


def states_list(x, n):
    states = [np.outer(x, x)]
    for t in range(n):
        s2 = states[t].copy()
        for i in range(0, 2):
            s2[i] = np.tanh(states[t][i] * x[i])
        states.append(s2)
    return np.sum(states[-1])


def shared_item(x, n):
    pair = [x * 1.0, x * 2.0]
    total = 0.0
    for _ in range(n):
        a = pair[0]
        b = pair[1]
        b[0] = a[1] * 0.5
        total = total + np.sum(a * b)
    return total


def array_view(x, n):
    y = x * 1.0
    for _ in range(n):
        v = y[1:]
        v[0] = np.sin(v[1]) * 0.5
    return np.sum(y)


def list_slot(x, n):
    rows = []
    for t in range(n):
        rows.append(x * (t + 1.0))
        row = rows[t]
        row[0] = np.sin(row[1])
    return np.sum(rows[-1]) + np.sum(rows[0])


def in_place(x, n):
    y = x * 1.0
    for _ in range(n):
        z = y
        z += np.sin(y) * 0.01
    return np.sum(y)


def argument_copy(x, n):
    x[0] = x[1] * 2.0
    return np.sum(np.sin(x))


def attribute(x, n):
    total = 0.0
    for t in range(n):
        total = total + x.shape[0] * np.sum(x * t)
    return total


def argument_list(xs, n):
    total = 0.0
    for x in xs:
        total = total + np.sum(np.sin(x))
    return total


PROGRAMS = {f.__name__: f for f in (states_list, shared_item, array_view, list_slot,
                                    in_place, argument_copy, attribute, argument_list)}


def arguments(name, n):
    rng = np.random.default_rng(0)
    if name == "argument_copy":
        return rng.uniform(0.5, 1.0, 64 * n), n
    if name == "argument_list":
        return [rng.uniform(0.5, 1.0, 3) for _ in range(n)], n
    return rng.uniform(0.5, 1.0, 3), n


def gradient(name):
    import srcgrad as sg
    return sg.grad(PROGRAMS[name], wrt=0)


def call_count(name, n):
    """Python and C calls (``sys.setprofile``) of one gradient at size ``n`` (after a
    first call has generated and compiled everything)."""
    return calls_of(gradient(name), arguments(name, n), arguments(name, n))


def calls_of(derivative, first, args):
    """Python and C calls of ``derivative(*args)``, after ``derivative(*first)``."""
    derivative(*first)
    count = [0]

    def profile(frame, event, arg):
        if event in ("call", "c_call"):
            count[0] += 1

    sys.setprofile(profile)
    try:
        derivative(*args)
    finally:
        sys.setprofile(None)
    return count[0]


def seconds(name, n, repeats=5):
    derivative = gradient(name)
    args = arguments(name, n)
    derivative(*args)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        derivative(*args)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks.guard_scaling")
    parser.add_argument("--n", type=int, default=64)
    options = parser.parse_args(argv)
    n = options.n
    print(f"| program | calls at {n} | calls at {2 * n} | ratio | time ratio |")
    print("|---|---|---|---|---|")
    for name in PROGRAMS:
        small, large = call_count(name, n), call_count(name, 2 * n)
        timed = seconds(name, 2 * n) / seconds(name, n)
        print(f"| {name} | {small} | {large} | {large / small:.2f} | {timed:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
