"""hvp, jacobian, hessian and nested derivatives against finite differences and closed
forms."""

import numpy as np
import pytest

import srcgrad as sg
from tests.forward.helpers import close, directional_difference


def cube(x):
    return x ** 3


def energy(x, w):
    h = x
    for _ in range(2):
        h = np.tanh(h * w) + 0.5 * h
    return np.sum(h ** 2) + w ** 3 * np.sum(x)


def rosen(x):
    total = 0.0
    for i in range(len(x) - 1):
        total = total + 100.0 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2
    return total


def vector_out(x):
    return np.sin(x) * np.sum(x ** 2)


def test_derivatives_of_cube_at_three():
    assert sg.grad(cube)(3.0) == 27.0
    assert sg.grad(sg.grad(cube))(3.0) == 18.0
    assert sg.grad(sg.grad(sg.grad(cube)))(3.0) == 6.0
    assert sg.hvp(cube)(3.0, 1.0) == 18.0
    first = sg.jvp(cube)
    assert first(3.0, 1.0) == (27.0, 27.0)
    assert sg.jvp(first)(3.0, 1.0, 1.0) == ((27.0, 27.0), (27.0, 18.0))
    third = sg.jvp(sg.jvp(first))(3.0, 1.0, 1.0, 1.0)
    assert third[1][1][1] == 6.0
    assert sg.jvp(sg.grad(sg.grad(cube)))(3.0, 1.0) == (18.0, 6.0)


@pytest.mark.parametrize("index", [0, 1])
def test_hvp_matches_differences_of_the_gradient(index):
    args = (np.array([0.3, -0.2, 0.5]), 0.7)
    rng = np.random.default_rng(3)
    v = rng.standard_normal(np.shape(args[index]))
    v = v if np.ndim(args[index]) else float(v)
    gradient = sg.grad(energy, wrt=index)
    assert close(sg.hvp(energy, wrt=index)(*args, v),
                 directional_difference(gradient, args, index, v), rtol=1e-5)


def test_hessian_entrywise():
    x = np.array([0.9, 1.1, 0.7])
    hessian = sg.hessian(rosen)(x)
    gradient = sg.grad(rosen)
    numeric = np.stack([directional_difference(gradient, (x,), 0, e) for e in np.eye(3)],
                       axis=-1)
    assert hessian.shape == (3, 3)
    assert close(hessian, numeric, rtol=1e-5, atol=1e-5)


def test_hessian_blocks_for_a_tuple_of_inputs():
    x, w = np.array([0.3, -0.2]), 0.7
    blocks = sg.hessian(energy, wrt=(0, 1))(x, w)
    dw = sg.grad(energy, wrt=1)
    assert blocks[0][0].shape == (2, 2) and np.shape(blocks[1][1]) == ()
    assert close(blocks[1][1], directional_difference(dw, (x, w), 1, 1.0))
    assert close(blocks[1][0], blocks[0][1])


@pytest.mark.parametrize("x", [np.array([0.2, -0.5, 1.0]), np.array([0.2, -0.5])])
def test_jacobian_forward_and_reverse_agree_with_differences(x):
    jac = sg.jacobian(vector_out)(x)
    numeric = np.stack([directional_difference(vector_out, (x,), 0, e)
                        for e in np.eye(len(x))], axis=-1)
    assert jac.shape == (len(x), len(x))
    assert close(jac, numeric)


def test_jacobian_of_a_scalar_uses_reverse_rows():
    x = np.array([0.9, 1.1, 0.7])
    assert close(sg.jacobian(rosen)(x), sg.grad(rosen)(x), rtol=1e-12)


def test_hvp_source_is_forward_mode_over_the_gradient():
    text = sg.source(sg.hvp(energy))
    assert "def energy_grad_jvp(" in text and "stack_dot" in text
