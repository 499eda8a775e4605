"""Second derivatives through ``np.sort``: hvp (forward over the generated gradient) and
the Jacobian of the gradient against central differences of the gradient. The sort's
helpers move values by a permutation, so their own rows are linear."""

import numpy as np
import pytest

import srcgrad as sg


def sorted_weighted(v):
    return np.sum(np.sort(v) * np.array([1.0, 2.0, 3.0]) * v)


def sorted_flat(v):
    return np.sum(np.sort(np.tanh(v) * v, axis=None) ** 2 * np.array([1.0, 2.0, 3.0]))


def sorted_columns(m):
    m = m.reshape(2, 3)
    return np.sum(np.sort(m ** 2, axis=0) * np.arange(6.0).reshape(2, 3) * m)


def _fd(f, v, h=1e-5):
    return np.array([(f(v + h * e) - f(v - h * e)) / (2 * h) for e in np.eye(v.size)])


@pytest.mark.parametrize("f, v", [
    (sorted_weighted, np.array([0.3, -0.2, 0.5])),
    (sorted_flat, np.array([0.3, -0.2, 0.5])),
    (sorted_columns, np.array([0.3, -0.2, 0.5, 1.1, -0.7, 0.05]))])
def test_second_derivatives_through_sort(f, v):
    t = np.linspace(-1.0, 1.0, v.size)
    hessian = _fd(sg.grad(f), v).T
    for _ in range(2):
        np.testing.assert_allclose(sg.hvp(f)(v.copy(), t), hessian @ t, atol=1e-6)
        np.testing.assert_allclose(sg.jacobian(sg.grad(f))(v.copy()), hessian, atol=1e-6)
