"""Parameters as a list of (W, b) pairs, with what a container-cotangent shortcut may
get wrong: one array object in two slots (each slot gets its own gradient), a layer the
output does not use (its slot gets zeros, not nothing), a slot read twice, a list sliced
and indexed from the end, layers of different shapes, an int or None item, and a
cotangent that reaches one pair through two paths. Each leaf's gradient against central
finite differences of that leaf alone."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

RNG = np.random.default_rng(5)
CLOSE = dict(rtol=1e-5, atol=1e-6)


def layers(widths):
    return [(RNG.standard_normal((m, n)) / np.sqrt(m), 0.1 * RNG.standard_normal(n))
            for m, n in zip(widths[:-1], widths[1:])]


def with_leaf(params, i, j, value):
    out = [list(pair) for pair in params]
    out[i][j] = value
    return [tuple(pair) for pair in out]


def check_leaves(f, params, *rest):
    """``sg.grad(f)(params, *rest)`` leaf by leaf against finite differences."""
    gradient = sg.grad(f)(params, *rest)
    assert isinstance(gradient, list) and len(gradient) == len(params)
    for i, pair in enumerate(params):
        for j, leaf in enumerate(pair):
            if not isinstance(leaf, np.ndarray):
                continue
            expected = numeric_grad(
                lambda v, i=i, j=j: f(with_leaf(params, i, j, v), *rest), [leaf.copy()], 0)
            got = gradient[i][j]
            assert got is not None, (i, j)
            np.testing.assert_allclose(np.asarray(got), expected, **CLOSE,
                                       err_msg=f"layer {i}, leaf {j}")
    value, tangent = sg.jvp(f)(params, *rest, [tuple(np.ones_like(a) for a in pair)
                                               for pair in params])
    assert np.isclose(value, f(params, *rest))
    total = sum(np.sum(np.asarray(g)) for pair in gradient for g in pair
                if g is not None)
    np.testing.assert_allclose(tangent, total, **CLOSE)


def mlp(params, x):
    h = x
    for W, b in params[:-1]:
        h = np.tanh(h @ W + b)
    W, b = params[-1]
    return np.sum((h @ W + b) ** 2)


def last_layer_unused(params, x):
    h = x
    for W, b in params[:-1]:
        h = np.tanh(h @ W + b)
    return np.sum(h ** 2)


def first_layer_read_twice(params, x):
    W, b = params[0]
    h = np.tanh(x @ W + b)
    h = h + np.tanh(x @ params[0][0])
    for W, b in params[1:]:
        h = np.sin(h @ W + b)
    return np.sum(h)


def pairs_by_index_from_the_end(params, x):
    h = x
    for k in range(len(params)):
        W, b = params[-1 - k] if k % 2 else params[k]
        h = np.tanh(h @ W[: h.shape[-1], : h.shape[-1]] + b[: h.shape[-1]])
    return np.sum(h * h)


def residual_through_two_paths(params, x):
    h = x
    for W, b in params:
        z = h @ W + b
        h = np.tanh(z) + 0.5 * z
    W0, b0 = params[0]
    return np.sum(h) + np.sum(W0 * W0) + np.sum(b0)


def loop_accumulating_layer_outputs(params, x):
    outs = []
    h = x
    for W, b in params:
        h = np.tanh(h @ W + b)
        outs.append(np.sum(h))
    return sum(outs)


SQUARE = [(RNG.standard_normal((3, 3)) / 2, 0.1 * RNG.standard_normal(3)) for _ in range(3)]
CASES = [
    (mlp, layers((4, 5, 3, 2))),
    (last_layer_unused, layers((4, 5, 3, 2))),
    (first_layer_read_twice, layers((4, 4, 3))),
    (pairs_by_index_from_the_end, SQUARE),
    (residual_through_two_paths, SQUARE),
    (loop_accumulating_layer_outputs, layers((4, 5, 3, 2))),
]


@pytest.mark.parametrize("f, params", CASES, ids=[f.__name__ for f, _ in CASES])
def test_each_leaf_of_a_layer_list(f, params):
    check_leaves(f, params, RNG.standard_normal((2, params[0][0].shape[0])))


def test_one_array_in_two_slots_gets_each_slot_its_own_gradient():
    W, b = RNG.standard_normal((3, 3)) / 2, 0.1 * RNG.standard_normal(3)
    params = [(W, b), (W, b), (RNG.standard_normal((3, 2)), np.zeros(2))]
    x = RNG.standard_normal((2, 3))
    gradient = sg.grad(mlp)(params, x)
    for i in range(2):
        for j in range(2):
            def slot_alone(v, i=i, j=j):
                copied = [tuple(a.copy() for a in pair) for pair in params]
                return mlp(with_leaf(copied, i, j, v), x)

            expected = numeric_grad(slot_alone, [params[i][j].copy()], 0)
            np.testing.assert_allclose(gradient[i][j], expected, **CLOSE)
    assert not np.allclose(gradient[0][0], gradient[1][0])


def test_the_same_derivative_meets_lists_of_other_lengths_and_shapes():
    df = sg.grad(mlp)
    for widths in [(4, 5, 3, 2), (4, 2), (4, 6, 6, 6, 1), (3, 3, 3)]:
        params = layers(widths)
        x = RNG.standard_normal((2, widths[0]))
        gradient = df(params, x)
        assert len(gradient) == len(params)
        for i, (W, _) in enumerate(params):
            expected = numeric_grad(
                lambda v, i=i, params=params, x=x: mlp(with_leaf(params, i, 0, v), x),
                [W.copy()], 0)
            np.testing.assert_allclose(gradient[i][0], expected, **CLOSE)
