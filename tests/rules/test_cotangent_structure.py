"""A gradient has its argument's structure, at every order.

An ndarray argument read as a sequence of rows by a join (``np.vstack(x)``,
``np.concatenate(x)``...) gets an ndarray gradient (it got a list of rows); a list
argument given to a NumPy function gets a list (``np.append(xs, v)``); a dict's unused
entries get zeros (``d.get("k", x)``: they got None); the pullback of ``sum([x, y])``
differentiated again gives the cotangent's shape (its transpose summed everything to a
scalar). Values against central finite differences, in reverse and forward mode and at
second order.
"""

import numpy as np
import pytest

import srcgrad as sg

JOINS = [
    ("vstack", lambda x: np.vstack(x)),
    ("hstack", lambda x: np.hstack(x)),
    ("column_stack", lambda x: np.column_stack(x)),
    ("dstack", lambda x: np.dstack(x)),
    ("concatenate", lambda x: np.concatenate(x)),
    ("stack axis 1", lambda x: np.stack(x, axis=1)),
]
SHAPES = [(2, 3), (1, 3), (3, 1), (2, 2, 2)]


def _fd_grad(f, x, eps=1e-6):
    x = np.asarray(x, dtype=float)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        out[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return out


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("name, join", JOINS, ids=[j[0] for j in JOINS])
def test_an_array_read_as_rows_gets_an_array(name, join, shape):
    weights = np.random.default_rng(0).standard_normal(np.shape(join(np.ones(shape))))

    def f(x):
        return np.sum(weights * join(x) ** 2)

    x = np.random.default_rng(1).standard_normal(shape)
    grad = sg.grad(f)
    for _ in range(2):
        g = grad(x)
        assert type(g) is np.ndarray and g.shape == x.shape
        np.testing.assert_allclose(g, _fd_grad(f, x), rtol=1e-6, atol=1e-7)
    v = np.random.default_rng(2).standard_normal(shape)
    _, tangent = sg.jvp(f)(x, v)
    assert np.isclose(tangent, np.sum(_fd_grad(f, x) * v))
    hessian = np.reshape(sg.hessian(f)(x), (x.size, x.size))
    np.testing.assert_allclose(hessian, np.diag(2 * np.ravel(_fd_grad(
        lambda y: np.sum(weights * join(y)), x))), atol=1e-6)


def test_a_list_argument_gets_a_list():
    def append(xs):
        return np.sum(np.append(xs, [1.0, 2.0]) ** 3)

    def prepend(xs):
        return np.sum(np.append([1.0, 2.0], xs) ** 3)

    def sine(xs):
        return np.sum(np.sin(xs) ** 2)

    xs = [0.5, -1.5]
    for f in (append, prepend, sine):
        g = sg.grad(f)(xs)
        assert type(g) is list and len(g) == 2
        np.testing.assert_allclose(g, _fd_grad(lambda a, f=f: f(list(a)), xs), rtol=1e-6)
    g = sg.grad(append)((0.5, -1.5))
    assert type(g) is tuple


def test_unused_dict_entries_get_zeros():
    def f(d):
        return d.get("k", 3.0) ** 2 + d.get("absent", 1.0)

    d = {"k": 2.0, "other_key": 5.0, "arr": np.ones(2)}
    g = sg.grad(f)(d)
    assert set(g) == set(d)
    assert g["k"] == 4.0 and g["other_key"] == 0.0
    np.testing.assert_array_equal(g["arr"], np.zeros(2))


C1 = np.random.default_rng(3).standard_normal((10, 11))
C2 = np.random.default_rng(4).standard_normal((10, 11))


def _sum_list(x, y):
    return sum([x, y])


def _pulled_back(x, y, v):
    _, backward = sg.vjp(_sum_list, wrt=(0, 1))(x, y)
    dx, dy = backward(v)
    return np.sum(dx * C1) + np.sum(dy * C2)


def _squared_sum(x, y):
    return np.sum(sum([x, y]) ** 2)


def _gradient_paired(x, y):
    return np.sum(sg.grad(_squared_sum, wrt=0)(x, y) * C1)


def test_the_pullback_of_sum_differentiated_again():
    rng = np.random.default_rng(5)
    x, y, v = (rng.standard_normal((10, 11)) for _ in range(3))
    dv = sg.grad(_pulled_back, wrt=2)(x, y, v)   # linear in v: the derivative is exact
    assert np.shape(dv) == v.shape
    np.testing.assert_allclose(dv, C1 + C2)
    gx, gy = sg.grad(_gradient_paired, wrt=(0, 1))(x, y)
    assert gx.shape == gy.shape == (10, 11)
    np.testing.assert_allclose(gx, 2 * C1)
    np.testing.assert_allclose(gy, 2 * C1)


@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (3,)), ((), ()), ((1,), (2, 1))],
                         ids=str)
def test_second_order_of_a_sum_of_a_list(shapes):
    rng = np.random.default_rng(6)
    x, y = (rng.standard_normal(s) for s in shapes)
    grad_y = sg.grad(_squared_sum, wrt=1)
    size = np.size(y)
    hessian = np.reshape(sg.hessian(_squared_sum, wrt=1)(x, y), (size, size))
    columns = []
    for i in range(size):
        e = np.zeros(size)
        e[i] = 1e-6
        e = np.reshape(e, np.shape(y))
        columns.append(np.ravel(np.asarray(grad_y(x, y + e)) - np.asarray(grad_y(x, y - e)))
                       / 2e-6)
    np.testing.assert_allclose(hessian, np.stack(columns, axis=1), atol=1e-5)
