"""Second derivatives through rows whose adjoints are runtime helpers, against closed
forms: a quantile is a fixed blend ``w`` of two ranked elements, so the Hessian of
``quantile(a) ** 2`` is ``2 w w^T``; the Hessian of the Euclidean norm is
``(I - x x^T / |x|^2) / |x|``."""

import numpy as np

import srcgrad as sg

A = np.array([0.9, -1.3, 2.2, 0.1, 1.4, -0.4])   # sorted: -1.3 -0.4 0.1 0.9 1.4 2.2


def squared_quantile(a):
    return np.quantile(a, 0.3) ** 2


def squared_median(a):
    return np.median(a) ** 2


def test_hessian_of_a_squared_quantile():
    # position 0.3 * 5 = 1.5: halfway between ranks 1 (-0.4, index 5) and 2 (0.1, index 3)
    w = np.zeros(6)
    w[5], w[3] = 0.5, 0.5
    np.testing.assert_allclose(sg.hessian(squared_quantile)(A), 2 * np.outer(w, w))
    np.testing.assert_allclose(sg.hvp(squared_quantile)(A, np.ones(6)), 2 * w * np.sum(w))


def test_hessian_of_a_squared_median():
    # ranks 2 (0.1, index 3) and 3 (0.9, index 0), equally weighted
    w = np.zeros(6)
    w[3], w[0] = 0.5, 0.5
    np.testing.assert_allclose(sg.hessian(squared_median)(A), 2 * np.outer(w, w))


X = np.array([0.5, -1.0, 2.0])
NORM_HESSIAN = (np.eye(3) - np.outer(X, X) / np.sum(X ** 2)) / np.linalg.norm(X)


def euclidean_norm(x):
    return np.linalg.norm(x)


def row_norms(a):
    return np.linalg.norm(a, axis=1) @ np.array([1.0, 2.0])


NORM_GRADIENT = sg.grad(euclidean_norm)
W = np.array([0.3, 0.1, -0.2])


def gradient_along_w(x):
    return np.sum(NORM_GRADIENT(x) * W)


def test_hessian_of_the_euclidean_norm_in_both_orders():
    np.testing.assert_allclose(sg.hessian(euclidean_norm)(X), NORM_HESSIAN)
    np.testing.assert_allclose(sg.hvp(euclidean_norm)(X, W), NORM_HESSIAN @ W)
    np.testing.assert_allclose(sg.grad(gradient_along_w)(X), NORM_HESSIAN @ W)   # rev-rev


def test_hessian_of_row_norms():
    a = np.array([[1.0, 2.0], [0.5, -1.0]])
    expected = np.zeros((2, 2, 2, 2))
    for i, weight in enumerate([1.0, 2.0]):
        r = a[i]
        n = np.linalg.norm(r)
        expected[i, :, i, :] = weight * (np.eye(2) - np.outer(r, r) / n ** 2) / n
    np.testing.assert_allclose(sg.hessian(row_norms)(a), expected)


def l1_norm(x):
    return np.linalg.norm(x, 1)


def test_second_derivative_of_a_piecewise_linear_norm_is_zero():
    """``|x|_1``'s gradient is ``sign(x)``, constant away from 0: its Hessian is 0."""
    for _ in range(2):
        np.testing.assert_array_equal(sg.hessian(l1_norm)(X), np.zeros((X.size, X.size)))
