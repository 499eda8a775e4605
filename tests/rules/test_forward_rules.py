"""Forward-mode rules beyond one argument at a time: tuple results whose tangent terms add
item by item, NamedTuple results read by field, and what both modes refuse."""

import numpy as np
import pytest

import srcgrad as sg
from tests.forward.helpers import close, directional_difference


def least_squares_fit(a, b):
    x, residuals, _, s = np.linalg.lstsq(a, b)
    return np.concatenate([x, residuals, s])


def test_lstsq_tangent_in_both_arguments_adds_item_by_item():
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((5, 3)), rng.standard_normal(5)
    da, db = rng.standard_normal((5, 3)), rng.standard_normal(5)
    value, tangent = sg.jvp(least_squares_fit, wrt=(0, 1))(a, b, (da, db))

    def along(t):
        return least_squares_fit(a + t * da, b + t * db)

    assert close(value, least_squares_fit(a, b))
    assert np.shape(tangent) == (7,)
    assert close(tangent, directional_difference(along, [0.0], 0, 1.0))


def eigen_fields(a):
    result = np.linalg.eigh(a)
    return np.sum(result.eigenvalues ** 2) + np.sum(np.abs(result.eigenvectors[:, 0]))


def test_eigh_tangent_keeps_the_named_fields():
    rng = np.random.default_rng(5)
    m = rng.standard_normal((3, 3))
    a = m @ m.T + np.eye(3)
    v = rng.standard_normal((3, 3))
    _, tangent = sg.jvp(eigen_fields)(a, v)
    assert close(tangent, directional_difference(eigen_fields, [a], 0, v))


def periodic_interp(x):
    return np.sum(np.interp(x, np.array([0.0, 1.0, 2.0]), np.array([0.0, 3.0, 1.0]),
                            period=2.5))


@pytest.mark.parametrize("api", ["grad", "jvp"])
def test_interp_with_a_period_is_refused_in_both_modes(api):
    """Neither rule models the wrap-around: d/dx at 2.2 is -2, a rule ignoring the period
    gives 0."""
    x = np.array([0.3, 2.2, 2.7])
    with pytest.raises(NotImplementedError, match="np.interp with period"):
        if api == "grad":
            sg.grad(periodic_interp)(x)
        else:
            sg.jvp(periodic_interp)(x, np.ones(3))


def wide_qr(a):
    return np.linalg.qr(a)[1]


@pytest.mark.parametrize("api", ["grad", "jvp"])
def test_qr_of_a_wide_matrix_is_refused_in_both_modes(api):
    a = np.random.default_rng(6).standard_normal((2, 3))
    with pytest.raises(NotImplementedError, match="wide matrix"):
        if api == "grad":
            sg.grad(lambda a: np.sum(wide_qr(a)))(a)
        else:
            sg.jvp(wide_qr)(a, np.ones((2, 3)))
