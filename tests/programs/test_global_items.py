"""An item of a global list of tuples that is an array (``params[0][1]`` read in a
lambda over ``W``): compiling it asked the array for its truth value (ValueError).
Oracle: the closed form."""

import numpy as np

import srcgrad as sg

PARAMS = [(np.ones((2, 2)), np.array([0.5, -1.0]))]


def test_an_array_item_of_a_global_list_of_tuples():
    x = np.array([0.3, 0.7])
    f = lambda w: np.sum(np.dot(x, w) + PARAMS[0][1])   # noqa: E731
    assert np.allclose(sg.grad(f)(np.ones((2, 2))), np.outer(x, np.ones(2)))
