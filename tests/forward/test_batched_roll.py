"""``np.roll`` in the batched forward mode (``sg.jacfwd``'s one sweep): the tangents'
directions axis stays last, so the roll's axes are the primal's (negative ones counted
from the primal's last); a roll of the flattened array goes one direction at a time.
Checked against central finite differences, each Jacobian called twice."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.compiler.forward_batched import batched_forward_unit
from tests.conftest import numeric_grad


def roll_rows(x):
    return np.roll(x, 1, 0) * x


def roll_last(x):
    return np.roll(x, -2, axis=-1) + np.sin(x)


def roll_both(x):
    return np.roll(x, (1, -1), axis=(0, 1)) * np.cos(x)


def roll_flat(x):
    return np.roll(x, 3) * x


def roll_keywords(x):
    return np.roll(x, shift=2, axis=1) ** 2


@pytest.mark.parametrize("f", [roll_rows, roll_last, roll_both, roll_flat, roll_keywords])
@pytest.mark.parametrize("shape", [(4, 5), (3, 1), (2, 3, 4)])
def test_batched_roll(f, shape):
    unit = batched_forward_unit(f, ("x",))
    assert unit is not None and "_sg.batch_roll(" in unit.source
    x = np.random.default_rng(0).standard_normal(shape)
    jac = sg.jacfwd(f)
    for _ in range(2):
        got = jac(x)
        expected = np.stack([numeric_grad(lambda y, i=i: f(y).ravel()[i], (x,), 0)
                             for i in range(x.size)]).reshape(shape + shape)
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)
