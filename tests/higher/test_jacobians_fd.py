"""``jacobian``, ``jacfwd`` and ``jacrev`` against central finite differences, over input
shapes 0-d, size 1, vectors and matrices, outputs that broadcast, and objectives shaped like
the AD benchmarks' Jacobians (ADBench's bundle-adjustment block; a hand-tracking-like
chain of rotations applied to points); each called twice."""

import numpy as np
import pytest

import srcgrad as sg
from benchmarks.gradbench import ba


def broadcast_product(x):
    return np.sin(x) * np.ones((2, 1, 1)) + x ** 2


def reduce_rows(x):
    return np.sum(np.exp(x) * x, axis=-1) + np.tanh(x).mean()


def scalar_out(x):
    return np.sum(x * np.cos(x))


def rotate_points(theta):
    """Hand-tracking-like: a chain of planar rotations (one per angle) applied to
    offsets, the points of each joint as outputs."""
    points = []
    position = np.zeros(2)
    angle = 0.0
    for k in range(theta.shape[0]):
        angle = angle + theta[k]
        position = position + (k + 1.0) * np.array([np.cos(angle), np.sin(angle)])
        points.append(position)
    return np.stack(points)


def bundle_block(params):
    return ba.reprojection_error(params, np.array([3.0, -2.0]))


SHAPES = [(), (1,), (3,), (2, 3)]
GENERIC = [broadcast_product, reduce_rows, scalar_out]


def finite_jacobian(f, x, eps=1e-6):
    x = np.asarray(x, dtype=float)
    out_shape = np.shape(f(x.copy()))
    jac = np.zeros(out_shape + x.shape)
    for index in np.ndindex(x.shape):
        step = np.zeros(x.shape)
        step[index] = eps
        column = (np.asarray(f(x + step)) - np.asarray(f(x - step))) / (2 * eps)
        jac[(...,) + index] = column
    return jac


def _check(maker, f, x):
    expected = finite_jacobian(f, x)
    derivative = maker(f)
    for _ in range(2):
        got = derivative(x.copy() if isinstance(x, np.ndarray) else x)
        assert np.shape(got) == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("maker", [sg.jacobian, sg.jacfwd, sg.jacrev],
                         ids=["jacobian", "jacfwd", "jacrev"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("f", GENERIC, ids=lambda f: f.__name__)
def test_jacobians_of_generic_functions_match_finite_differences(maker, shape, f):
    x = np.random.default_rng(len(shape)).uniform(0.2, 1.0, shape)
    _check(maker, f, x)


@pytest.mark.parametrize("maker", [sg.jacobian, sg.jacfwd, sg.jacrev],
                         ids=["jacobian", "jacfwd", "jacrev"])
@pytest.mark.parametrize("f, x", [
    (rotate_points, np.array([0.3, -0.2, 0.5, 0.1])),
    (bundle_block, ba.inputs(1, seed=3)[0][0]),
], ids=["hand_like", "bundle_adjustment"])
def test_benchmark_shaped_jacobians_match_finite_differences(maker, f, x):
    _check(maker, f, x)


def two_inputs(x, y):
    m = np.outer(x, x)[:2, :2] @ y
    return np.concatenate([np.sin(m).ravel(), [np.sum(x) * y[0, 1]]])


def ellipsis_and_name_indices(x):
    y = x * 1.0
    y[..., 0] = x[..., 1] ** 2
    k = 1
    z = y[k]
    return np.tanh(z) * y[..., 2][k]


def call_through_a_value(x):
    fns = [np.sin, np.cos]
    total = x * 0.0
    for fn in fns:
        total = total + fn(x * 2.0)
    return total


@pytest.mark.parametrize("chunk", [1, 4, 1 << 21])
def test_a_jacobian_in_chunks_of_columns_matches_finite_differences(chunk, monkeypatch):
    from srcgrad.api import batched_columns

    monkeypatch.setattr(batched_columns, "CHUNK_ELEMENTS", chunk)
    x, y = np.array([0.3, -0.6, 0.9]), np.array([[0.2, 0.5], [-0.4, 0.8]])
    jx, jy = sg.jacfwd(two_inputs, wrt=(0, 1))(x, y)
    np.testing.assert_allclose(jx, finite_jacobian(lambda v: two_inputs(v, y), x),
                               rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(jy, finite_jacobian(lambda v: two_inputs(x, v), y),
                               rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("f", [ellipsis_and_name_indices, call_through_a_value],
                         ids=lambda f: f.__name__)
def test_indices_and_unbatched_calls_match_finite_differences(f):
    _check(sg.jacfwd, f, np.array([[0.3, 0.7, -0.2], [0.5, -0.9, 0.4]]))


def recursive_power(x, n=3):
    if n == 0:
        return x * 0.0 + 1.0
    return x * recursive_power(x, n - 1)


def recursion(x):
    return recursive_power(x) + np.sin(x)


def test_what_has_no_batched_form_takes_one_column_at_a_time():
    """Refused when generated (recursion), or when it runs (a call through a value that
    is not a method of an array reading it): the columns one jvp at a time, exact."""
    from srcgrad.api.batched_columns import batched_columns
    from srcgrad.compiler.forward_batched import batched_forward_unit

    x = np.array([0.3, -0.6, 0.9])
    assert batched_forward_unit(recursion, ("x",)) is None
    assert batched_forward_unit(call_through_a_value, ("x",)) is not None
    assert batched_columns(call_through_a_value, ("x",), (x,), [x]) is None
    for f in (recursion, call_through_a_value):
        np.testing.assert_allclose(sg.jacfwd(f)(x), finite_jacobian(f, x), rtol=1e-6,
                                   atol=1e-7)


def array_methods(x):
    m = np.outer(x, x[::-1])
    return np.sin(m.ravel()) + m.reshape(m.size) * m.T.reshape(-1) + m.sum(axis=0).repeat(3)


def products_and_joins(x):
    m = np.outer(x, x)
    v = m @ x + np.dot(x, m) + x @ m @ x
    w = np.stack([v, x * 2.0], axis=-1) @ np.array([1.0, -0.5])
    u = np.concatenate([m, np.array([x, x ** 2])], axis=0)
    return np.concatenate([w, u.ravel(), [np.dot(x, x)], np.array([x[0], x[1] * x[2]])])


@pytest.mark.parametrize("f", [array_methods, products_and_joins], ids=lambda f: f.__name__)
def test_batched_products_joins_and_array_methods_match_finite_differences(f):
    from srcgrad.compiler.forward_batched import batched_forward_unit

    assert batched_forward_unit(f, ("x",)) is not None
    _check(sg.jacfwd, f, np.array([0.3, -0.6, 0.9]))
