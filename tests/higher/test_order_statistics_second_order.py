"""Second derivatives through order statistics: a quantile is a fixed blend ``w`` of two
ranked elements, so the Hessian of ``quantile(a) ** 2`` is ``2 w w^T`` (closed form)."""

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
