"""The batched sweeps of Jacobians take, for all columns or rows at once: the ``@``
operator's tangent (``_sg.batch_matmul``), a reshape of a block of cotangents, the
backward of a call through a value (``x.ravel()`` of a value whose type is known only as
it runs) and a callee's generated backward (a function of another module, not inlined).
Each against central finite differences, for vectors and matrices, called twice; the
batched code runs no step per column or row."""

import inspect

import numpy as np
import pytest

import srcgrad as sg
from benchmarks.gradbench.hand_like import rodrigues, rotation_z
from srcgrad.compiler.forward_batched import batched_forward_unit
from srcgrad.compiler.reverse_batched import batched_reverse_unit


def chain(theta, offsets):
    """Rotations (from another module: units of their own) applied to points, each
    difference flattened through a call on a value."""
    R = rodrigues(theta[0:3])
    out = []
    M = np.eye(3)
    for j in range(theta.shape[0] - 3):
        M = M @ rotation_z(theta[3 + j])
        moved = R @ (M @ offsets[j]) - offsets[j]
        out.append(moved.ravel())
    return np.concatenate(out)


def products(x, w):
    """``@`` between a tangent and a primal, on vectors and matrices."""
    a = w @ x
    b = x @ w.T
    return np.tanh(a @ b) * (x @ x) + np.reshape(w @ w.T, (-1,))[0:2]


def reshaped(x):
    y = np.reshape(x * x, (-1,))
    return np.sin(y) * y[0]


def finite_jacobian(f, args, which=0, eps=1e-6):
    x = np.asarray(args[which], dtype=float)
    out_shape = np.shape(f(*args))
    jac = np.zeros(out_shape + x.shape)
    for index in np.ndindex(x.shape):
        step = np.zeros(x.shape)
        step[index] = eps
        up, down = list(args), list(args)
        up[which], down[which] = x + step, x - step
        jac[(...,) + index] = (f(*up) - f(*down)) / (2 * eps)
    return jac


def _arguments(f, seed):
    rng = np.random.default_rng(seed)
    if f is chain:
        return (rng.uniform(-0.5, 0.5, 6), rng.uniform(-1.0, 1.0, (3, 3, 2)))
    if f is products:
        return (rng.uniform(-1.0, 1.0, 3), rng.uniform(-1.0, 1.0, (3, 3)))
    return (rng.uniform(0.5, 1.5, (2, 3)),)


@pytest.mark.parametrize("f", [chain, products, reshaped], ids=lambda f: f.__name__)
@pytest.mark.parametrize("how", ["jacfwd", "jacrev"])
def test_batched_jacobians_match_finite_differences(f, how):
    args = _arguments(f, len(f.__name__))
    expected = finite_jacobian(f, args)
    jacobian = getattr(sg, how)(f)
    for _ in range(2):
        np.testing.assert_allclose(jacobian(*args), expected, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("f", [chain, products, reshaped], ids=lambda f: f.__name__)
def test_no_step_runs_once_per_column_or_row(f):
    wrt = (list(inspect.signature(f).parameters)[0],)
    forward, reverse = batched_forward_unit(f, wrt), batched_reverse_unit(f, wrt)
    assert "map_columns" not in forward.source
    assert "map_rows" not in reverse.source
