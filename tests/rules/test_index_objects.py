"""NumPy objects that are not functions, read by subscript: resolved by what they do, or
refused. Never a silent zero.

``np.r_[x, c]`` and ``np.c_[...]`` are joins (reverse mode gave an all-zero gradient,
forward mode crashed); ``np.s_`` / ``np.index_exp`` give their key; ``np.mgrid`` /
``np.ogrid`` constants; a slice bound, a grid's key or another NumPy object's key that
carries a derivative is a MissingRuleError. Generated over joins, dtypes (real and
complex: finite differences in the real and the imaginary directions), shapes (0-d, one
element, several), reverse and forward mode and second order.
"""

import numpy as np
import pytest

import srcgrad as sg

C = np.array([1.0, -2.0])
POLY = np.poly1d([1.0, 2.0, 3.0])

JOINS = [
    ("r_ arrays", lambda x: np.r_[x, C]),
    ("r_ slice and number", lambda x: np.r_[C, 0:2, x, 1.5, x]),
    ("r_ directive 2-d", lambda x: np.r_["0,2", x, x * 2.0]),
    ("c_", lambda x: np.c_[x, np.ones_like(x)]),
    ("c_ 2-d", lambda x: np.c_[np.reshape(x, (-1, 1)), np.reshape(x, (-1, 1)) ** 2]),
]
SHAPES = [(), (1,), (3,)]


def _loss(join, weights_seed=0):
    def f(x):
        b = join(x)
        w = np.random.default_rng(weights_seed).standard_normal(np.shape(b))
        return np.real(np.sum(w * b * np.conj(b)))
    return f


def _fd(f, x, v, eps=1e-6):
    return (f(x + eps * v) - f(x - eps * v)) / (2 * eps)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["real", "complex"])
@pytest.mark.parametrize("name, join", JOINS, ids=[j[0] for j in JOINS])
def test_joins_match_finite_differences(name, join, dtype, shape):
    if name.startswith("c_ 2-d") and shape == ():
        pytest.skip("a 0-d array has no column")
    rng = np.random.default_rng(len(name))
    x = rng.standard_normal(shape)
    if dtype == "complex":
        x = x + 1j * rng.standard_normal(shape)
    f = _loss(join)
    grad = sg.grad(f)
    directions = [rng.standard_normal(shape)]
    if dtype == "complex":
        directions.append(1j * rng.standard_normal(shape))
    for _ in range(2):
        g = grad(x)
        assert np.shape(g) == np.shape(x) and np.iscomplexobj(g) == (dtype == "complex")
        for v in directions:
            numeric = _fd(f, x, v)
            assert np.isclose(np.real(np.sum(g * v)), numeric, rtol=1e-6, atol=1e-7)
            _, tangent = sg.jvp(f)(x, v)
            assert np.isclose(tangent, numeric, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name, join", JOINS, ids=[j[0] for j in JOINS])
def test_joins_at_second_order(name, join):
    x = np.array([0.3, -1.1, 0.8])
    f = _loss(join)
    grad = sg.grad(f)
    v = np.array([0.5, 1.0, -2.0])
    numeric = (np.asarray(grad(x + 1e-6 * v)) - np.asarray(grad(x - 1e-6 * v))) / 2e-6
    np.testing.assert_allclose(sg.hessian(f)(x) @ v, numeric, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sg.jvp(grad)(x, v)[1], numeric, rtol=1e-5, atol=1e-6)


def index_expressions(x):
    return np.sum(x[np.s_[1:]] ** 2) + x[np.index_exp[0]] ** 3 + np.s_[x][0] * 2.0


def grids(x):
    a, b = np.mgrid[0:2, 0:3]
    rows, cols = np.ogrid[0:2, 0:3]
    return np.sum(x * (a + 2 * b + rows * cols)) + np.sum(np.mgrid[0:1:3j] * x[0])


@pytest.mark.parametrize("f, shape", [(index_expressions, (4,)), (grids, (2, 3))])
def test_index_expressions_and_grids(f, shape):
    x = np.random.default_rng(1).standard_normal(shape)
    g = sg.grad(f)(x)
    v = np.random.default_rng(2).standard_normal(shape)
    assert np.isclose(np.sum(g * v), _fd(f, x, v), rtol=1e-6)
    assert np.isclose(sg.jvp(f)(x, v)[1], _fd(f, x, v), rtol=1e-6)


def grid_to_x(x):
    return np.sum(np.mgrid[0:x[0]:3j])


def join_from_x(x):
    return np.sum(np.r_[0:x[0]:4j] * x)


def slice_object_from_x(x):
    bounds = slice(0.0, x[0], 3j)
    return np.sum(np.mgrid[bounds] * x[1])


def item_of_poly(x):
    return POLY[x[0]] * x[1]


@pytest.mark.parametrize("f", [grid_to_x, join_from_x, slice_object_from_x, item_of_poly])
@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_a_derivative_through_a_key_is_refused(f, mode):
    x = np.array([2.0, 1.0])
    with pytest.raises(sg.MissingRuleError):
        if mode == "grad":
            sg.grad(f)(x)
        else:
            sg.jvp(f)(x, np.ones(2))


def test_a_rebound_join_regenerates():
    global C
    f = _loss(JOINS[0][1])
    x = np.array([0.3, -1.1])
    saved = C
    try:
        first = sg.grad(f)(x)
        C = np.array([5.0])
        second = sg.grad(f)(x)   # (C is data, read when the gradient runs)
        assert np.isclose(np.sum(second), _fd(f, x, np.ones(2)))
        assert np.shape(first) == np.shape(second)
    finally:
        C = saved
