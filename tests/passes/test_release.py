"""A body-level value the backward sweep reads only for its shape is rebound to that shape
after its last forward use (``optimize.release``): the gradient is unchanged, the array
is freed early."""

import numpy as np

import srcgrad as sg
from srcgrad import syntax
from srcgrad.compiler import reverse as compiler
from srcgrad.optimize.release import release_shapes
from srcgrad.runtime import SavedShape
from tests.conftest import numeric_grad


def mlp(x, W1, b1, W2):
    h = np.tanh(x @ W1 + b1)
    return np.sum(np.sin(h @ W2)) / x.shape[0]


def used_twice(x, w):
    z = x * w
    a = np.sin(z)
    b = np.cos(z) * a
    return np.sum(b + z)


def summed(x, w):
    z = x @ w
    s = np.sum(z)
    return s * s


def scalar_bias(x, b):
    z = x + b
    return np.sum(np.exp(z))


RNG = np.random.default_rng(7)
X, W1, B1, W2 = (RNG.standard_normal((16, 3)), RNG.standard_normal((3, 5)),
                 RNG.standard_normal(5), RNG.standard_normal((5, 2)))


def check(f, args, wrt):
    grads = sg.grad(f, wrt=wrt)(*args)
    for grad, index in zip(grads, wrt):
        np.testing.assert_allclose(grad, numeric_grad(f, list(args), index),
                                   rtol=1e-5, atol=1e-7)


def body_lines(df):
    return [line.strip() for line in sg.source(df).splitlines()]


def test_a_shape_read_value_is_released_after_its_last_forward_use():
    df = sg.grad(mlp, wrt=(1, 2, 3))
    lines = body_lines(df)
    release = lines.index("_matmul = _sg.shape_of(_matmul)")
    # its last forward read (the sum may write into it: optimize.reuse)
    assert lines[release - 1] == "_add = _sg.sum_into(_matmul, _matmul, b1)"
    check(mlp, (X, W1, B1, W2), (1, 2, 3))
    _, saved = compiler.reverse_unit(mlp, ("W1", "b1", "W2")).forward(X, W1, B1, W2)
    assert any(isinstance(s, SavedShape) and s.shape == (16, 5) for s in saved)
    assert not any(isinstance(s, np.ndarray) and s.shape == (16, 5) and s is not None
                   and np.allclose(s, X @ W1) for s in saved)


def test_a_value_read_by_the_backward_sweep_is_kept():
    df = sg.grad(used_twice, wrt=(0, 1))
    assert "z = _sg.shape_of(z)" not in sg.source(df)
    args = (RNG.standard_normal(4), RNG.standard_normal(4))
    check(used_twice, args, (0, 1))


def test_the_result_and_value_and_grad_are_unchanged():
    x, w = RNG.standard_normal((3, 4)), RNG.standard_normal(4)
    value, (dx, dw) = sg.value_and_grad(summed, wrt=(0, 1))(x, w)
    assert value == summed(x, w)
    check(summed, (x, w), (0, 1))
    np.testing.assert_allclose(dx, numeric_grad(summed, [x, w], 0), rtol=1e-5, atol=1e-7)


def test_a_float_template_stays_a_float():
    x = RNG.standard_normal((2, 3))
    check(scalar_bias, (x, 0.25), (0, 1))
    db = sg.grad(scalar_bias, wrt=1)(x, 0.25)
    assert np.ndim(db) == 0


def test_gradients_of_released_code_differentiate_again():
    df = sg.grad(mlp, wrt=1)
    v = RNG.standard_normal(W1.shape)
    tangent = sg.hvp(mlp, wrt=1)(X, W1, B1, W2, v)
    tangent = tangent[1] if isinstance(tangent, tuple) else tangent
    eps = 1e-5
    expected = (df(X, W1 + eps * v, B1, W2) - df(X, W1 - eps * v, B1, W2)) / (2 * eps)
    np.testing.assert_allclose(tangent, expected, rtol=1e-5, atol=1e-7)

    def squared_norm(x, W1, b1, W2):
        return np.sum(df(x, W1, b1, W2) ** 2)

    np.testing.assert_allclose(sg.grad(squared_norm, wrt=2)(X, W1, B1, W2),
                               numeric_grad(squared_norm, [X, W1, B1, W2], 2),
                               rtol=1e-5, atol=1e-6)


def released(forward, backward, keep=()):
    out = release_shapes(syntax.quote(forward), syntax.quote(backward), keep)
    return [syntax.to_source(stmt).strip() for stmt in out]


BACKWARD = "da = _sg.unbroadcast(d, a)"


def test_the_pass_releases_only_what_is_provably_dead():
    assert released("a = x @ w\nb = a + c\ny = b * 2", BACKWARD) == \
        ["a = x @ w", "b = a + c", "a = _sg.shape_of(a)", "y = b * 2"]
    # bound twice, read by a lambda or a generator, kept for the result, or read whole
    for forward in ("a = x @ w\na = a + c", "a = x @ w\nf = lambda: a",
                    "a = x @ w\ng = (a for _ in r)", "for i in r:\n    a = x @ w",
                    "a = _sg.read_variable(v)", "a = b"):
        assert "a = _sg.shape_of(a)" not in released(forward, BACKWARD)
    assert "a = _sg.shape_of(a)" not in released("a = x @ w", BACKWARD, keep={"a"})
    assert "a = _sg.shape_of(a)" not in released("a = x @ w", BACKWARD + "\nq = a * d")
    assert "a = _sg.shape_of(a)" not in released("a = x @ w", BACKWARD + "\na = stack.pop()")


def guarded(x, w):
    z = x @ w
    try:
        y = np.sum(np.tanh(z + 1.0))
    except ZeroDivisionError:
        y = np.sum(z)
    return y * np.sum(z * 0.5)


def test_a_value_read_in_a_try_statement_is_released_after_it():
    x, w = RNG.standard_normal((3, 4)), RNG.standard_normal((4, 2))
    check(guarded, (x, w), (0, 1))
