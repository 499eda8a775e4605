"""A module attribute holding a bound method of another object (``numpy.random.randn`` is
the method of a RandomState, ``random.random`` of a Random instance) is guarded as the
attribute: guarding the object it is bound to under the module's name made a guard that
could never hold, and regenerating the code recursed without end. Both modes, called
repeatedly, against closed forms."""

import random

import numpy as np
import numpy.random as npr
import pytest

import srcgrad as sg


def with_numpy_random(x):
    noise = npr.randn(3)
    return np.sum(x ** 2) + 0.0 * np.sum(noise)


def with_np_random_rand(x):
    return np.sum(np.sin(x)) + 0.0 * np.random.rand()


def with_stdlib_random(x):
    return np.sum(x ** 3) + 0.0 * random.random()


CASES = [(with_numpy_random, lambda x: 2 * x), (with_np_random_rand, np.cos),
         (with_stdlib_random, lambda x: 3 * x ** 2)]


@pytest.mark.parametrize("f, derivative", CASES, ids=[c[0].__name__ for c in CASES])
def test_module_attributes_bound_to_other_objects(f, derivative):
    x = np.array([0.3, -1.2, 0.8])
    v = np.array([1.0, 0.5, -2.0])
    for _ in range(3):
        np.testing.assert_allclose(sg.grad(f)(x), derivative(x))
        np.testing.assert_allclose(sg.jvp(f)(x, v)[1], np.dot(derivative(x), v))
        np.testing.assert_allclose(sg.hvp(f)(x, v), sg.jvp(sg.grad(f))(x, v)[1])
