"""The adjoints of np.concatenate and np.stack (slices of the cotangent, read from the
arrays' own attributes) and add_at's int/slice path: checked against np.split / np.take
and finite differences; pieces never alias the cotangent they came from."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.runtime import add_at, concatenate_adjoint, stack_adjoint
from tests.conftest import numeric_grad

RNG = np.random.default_rng(5)


@pytest.mark.parametrize("shapes, axis", [
    ([(2, 3), (4, 3), (1, 3)], 0),
    ([(2, 3), (2, 1), (2, 2)], 1),
    ([(2, 3), (2, 1), (2, 2)], -1),
    ([(3,), (0,), (2,)], 0),                 # an empty piece
    ([(2, 2), (3,)], None),                  # flattened
])
def test_concatenate_adjoint_matches_split(shapes, axis):
    arrays = [RNG.standard_normal(s) for s in shapes]
    g = RNG.standard_normal(np.concatenate(arrays, axis=axis).shape)
    pieces = concatenate_adjoint(g, arrays, axis)
    flat = g if axis is not None else g.ravel()
    bounds = np.cumsum([a.shape[axis] if axis is not None else a.size for a in arrays])[:-1]
    for piece, expected, a in zip(pieces, np.split(flat, bounds, axis=axis or 0), arrays):
        assert piece.shape == a.shape
        np.testing.assert_array_equal(piece, np.reshape(expected, a.shape))


def test_concatenate_adjoint_of_lists_and_scalars_keeps_the_general_path():
    g = np.arange(5.0)
    pieces = concatenate_adjoint(g, [[1.0, 2.0], np.zeros(3)], 0)
    np.testing.assert_array_equal(pieces[0], [0.0, 1.0])
    np.testing.assert_array_equal(pieces[1], [2.0, 3.0, 4.0])


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_stack_adjoint_matches_take_and_owns_its_pieces(axis):
    arrays = [RNG.standard_normal((2, 3)) for _ in range(4)]
    g = RNG.standard_normal(np.stack(arrays, axis=axis).shape)
    before = g.copy()
    for given in (g, list(np.moveaxis(g, axis, 0)) if axis in (0,) else g):
        pieces = stack_adjoint(given, arrays, axis)
        assert len(pieces) == 4
        for i, piece in enumerate(pieces):
            np.testing.assert_array_equal(piece, np.take(before, i, axis=axis))
        pieces[0] += 100.0   # a write into one piece reaches neither g nor the others
        np.testing.assert_array_equal(g, before)
        np.testing.assert_array_equal(pieces[1], np.take(before, 1, axis=axis))


def test_stack_adjoint_of_scalars_and_of_a_list_cotangent():
    pieces = stack_adjoint(np.array([1.0, 2.0]), [1.0, 2.0], 0)
    assert pieces == [1.0, 2.0]
    rows = [np.ones(3), 2 * np.ones(3)]
    pieces = stack_adjoint(rows, [np.zeros(3), np.zeros(3)], 0)
    np.testing.assert_array_equal(pieces[1], 2 * np.ones(3))
    pieces[1][0] = 7.0
    assert rows[1][0] == 2.0


def test_add_at_int_and_slice_into_an_array():
    dx = np.zeros((3, 2))
    assert add_at(dx, 1, np.array([1.0, 2.0])) is dx
    add_at(dx, slice(0, 2), np.ones(2))     # broadcast over the rows
    add_at(dx, slice(None, None, 2), 1.0)
    np.testing.assert_array_equal(dx, [[2.0, 2.0], [2.0, 3.0], [1.0, 1.0]])
    with pytest.raises(ValueError):
        add_at(dx, 0, np.ones(3))           # a wrong shape is NumPy's error, not a guess


def gates(x, w, h):
    z = np.concatenate((x, h, x)) * w
    parts = [np.tanh(z[0:2]), np.sin(z[2:5]), z[5:]]
    return np.sum(np.stack([parts[0] * parts[2], parts[1][:2]]) ** 2)


@pytest.mark.parametrize("wrt", [0, 1, 2])
def test_gradients_through_concatenate_and_stack(wrt):
    x, w, h = RNG.standard_normal(2), RNG.standard_normal(7), RNG.standard_normal(3)
    np.testing.assert_allclose(sg.grad(gates, wrt)(x, w, h),
                               numeric_grad(gates, [x, w, h], wrt), rtol=1e-6, atol=1e-8)
