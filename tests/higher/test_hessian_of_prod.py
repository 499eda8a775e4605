"""Second order through np.prod: the Hessian of a product, written out by hand."""

import numpy as np
import pytest

import srcgrad as sg


def product(x):
    return np.prod(x)


def row_products_squared(x):
    return np.sum(np.prod(x, axis=1) ** 2)


def product_hessian(x):
    """H_ij = prod_{k != i, j} x_k off the diagonal, 0 on it."""
    n = len(x)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:
                out[i, j] = np.prod(np.delete(x, [i, j]))
    return out


@pytest.mark.parametrize("x", [np.array([1.0, 2.0, 3.0, 0.5]), np.array([0.0, 2.0, 3.0, 1.5]),
                               np.array([0.0, 0.0, 3.0, 1.5])], ids=["nonzero", "a zero",
                                                                      "two zeros"])
def test_hessian_of_a_product(x):
    assert np.allclose(sg.hessian(product)(x), product_hessian(x))


def test_hessian_through_a_product_along_an_axis():
    x = np.array([[1.0, 0.0, 3.0], [0.5, 2.0, 1.5]])
    expected = np.zeros((2, 3, 2, 3))
    for r in range(2):   # sum_r p_r^2: H = 2 (grad p_r grad p_r^T + p_r hess p_r)
        p = np.prod(x[r])
        grad = np.array([np.prod(np.delete(x[r], i)) for i in range(3)])
        expected[r, :, r, :] = 2 * (np.outer(grad, grad) + p * product_hessian(x[r]))
    assert np.allclose(sg.hessian(row_products_squared)(x), expected)
