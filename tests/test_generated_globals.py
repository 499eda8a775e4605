"""Generated functions run with a plain dict as their globals (CPython caches a global
read only from a plain dict), and still read the user's globals and cells live."""

import numpy as np

import srcgrad as sg

SCALE = 2.0


def scaled(x):
    return SCALE * np.sin(x)


def make_shifted():
    shift = 1.0

    def shifted(x):
        return np.sin(x) * shift

    def move(to):
        nonlocal shift
        shift = to

    return shifted, move


def test_generated_code_runs_with_a_plain_dict_as_its_globals():
    grad = sg.grad(scaled)
    assert np.isclose(grad(0.3), 2.0 * np.cos(0.3))
    generated = sg.grad(scaled).func
    assert type(generated.__globals__) is dict
    assert generated.__globals__["np"] is np


def test_a_global_rebound_after_the_compile_is_read():
    global SCALE
    grad = sg.grad(scaled)
    assert np.isclose(grad(0.3), 2.0 * np.cos(0.3))
    SCALE = 5.0
    try:
        assert np.isclose(grad(0.3), 5.0 * np.cos(0.3))
        assert np.isclose(grad(np.array(0.3)), 5.0 * np.cos(0.3))   # (the array path)
    finally:
        SCALE = 2.0


def test_a_cell_rebound_after_the_compile_is_read():
    shifted, move = make_shifted()
    grad = sg.grad(shifted)
    assert np.isclose(grad(0.3), np.cos(0.3))
    move(4.0)
    assert np.isclose(grad(0.3), 4.0 * np.cos(0.3))
