"""Second derivatives through ``np.sort`` and ``np.einsum``: hvp (forward over the
generated gradient) against second-order central differences of ``f``, and for the sort
the Jacobian of the gradient too. The sort's helpers move values by a permutation (their
rows are linear); an einsum operand's cotangent is linear in the cotangent and in every
other operand."""

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


def einsum_dot(v):
    return np.einsum("i,i->", v, np.tanh(v))


def einsum_chain(v):
    M = np.outer(v, v) + np.eye(3)
    return np.sum(np.einsum("ij,jk,k->i", M, np.sin(M), v) ** 2)


def einsum_interleaved(v):
    return np.einsum(np.tanh(v), [0], v, [0], [])


def einsum_diagonal(v):
    return np.sum(np.einsum("ii->i", np.outer(v, np.exp(v))) * v)


def _hessian(f, v, h=1e-4):
    basis = np.eye(v.size)
    return np.array([[(f(v + h * (a + b)) - f(v + h * (a - b)) - f(v - h * (a - b))
                       + f(v - h * (a + b))) / (4 * h * h) for b in basis] for a in basis])


@pytest.mark.parametrize("f", [einsum_dot, einsum_chain, einsum_interleaved, einsum_diagonal,
                               sorted_weighted, sorted_flat])
def test_hvp_against_second_differences_of_f(f):
    v, t = np.array([0.3, -0.2, 0.5]), np.array([1.0, 0.5, -1.0])
    for _ in range(2):
        np.testing.assert_allclose(sg.hvp(f)(v.copy(), t), _hessian(f, v) @ t, rtol=1e-4,
                                   atol=1e-5)


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
