"""Cotangents, tangents and output gradients are checked against the shape of what
they belong to, always: one of another shape would broadcast into a wrong derivative
(``np.ones(5)`` for a scalar target gave 5x the gradient). Shaped right, they give the
derivative finite differences give."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import GradientError

X = np.array([1.0, 2.0, 3.0])
B = 2.0


def scalar_out(x):
    return np.sum(x * x) * B


def vector_out(x):
    return np.sin(x) * B


def pair_out(x):
    return np.sum(x), x * 3.0


SHAPES = [(), (1,), (3,), (5,), (3, 1), (1, 3)]


def fd_vjp(f, cotangent, x=X, eps=1e-6):
    def weighted(v):
        return np.sum(np.asarray(f(v)) * cotangent)
    out = np.zeros_like(x)
    for i in range(x.size):
        step = np.zeros_like(x)
        step[i] = eps
        out[i] = (weighted(x + step) - weighted(x - step)) / (2 * eps)
    return out


def cases():
    for f, shape in ((scalar_out, ()), (vector_out, (3,))):
        for given in SHAPES:
            yield f, shape, given


@pytest.mark.parametrize("f, shape, given", list(cases()),
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_vjp_backward(f, shape, given):
    _, backward = sg.vjp(f)(X.copy())
    cotangent = np.linspace(0.5, 1.5, int(np.prod(given))).reshape(given)
    for _ in range(2):
        if given == shape:
            np.testing.assert_allclose(backward(cotangent), fd_vjp(f, cotangent), rtol=1e-6)
        else:
            with pytest.raises(GradientError, match=r"cotangent is shaped"):
                backward(cotangent)


@pytest.mark.parametrize("f, shape, given", list(cases()),
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_tape_output_gradients(f, shape, given):
    weights = np.linspace(0.5, 1.5, int(np.prod(given))).reshape(given)
    compiled = sg.differentiable(f)
    for _ in range(2):
        x = sg.Variable(X.copy())
        with sg.GradientTape() as tape:
            y = compiled(x)
        if given == shape:
            got = tape.gradient(y, x, output_gradients=weights)
            np.testing.assert_allclose(np.asarray(got), fd_vjp(f, weights), rtol=1e-6)
        else:
            with pytest.raises(GradientError, match="output gradient is shaped"):
                tape.gradient(y, x, output_gradients=weights)


def test_tape_target_written_in_the_block():
    """The issue's case: a scalar target computed on Variables in the ``with`` block."""
    x = sg.Variable(X.copy())
    with sg.GradientTape(persistent=True) as tape:
        y = np.sum(x * x) * B
    with pytest.raises(GradientError):
        tape.gradient(y, x, output_gradients=np.ones(5))
    with pytest.raises(GradientError, match="2 values for 1 targets"):
        tape.gradient(y, x, output_gradients=[1.0, 1.0])
    np.testing.assert_allclose(np.asarray(tape.gradient(y, x, output_gradients=3.0)),
                               fd_vjp(scalar_out, 3.0), rtol=1e-6)


@pytest.mark.parametrize("given", SHAPES)
def test_jvp_and_hvp_tangents(given):
    tangent = np.linspace(0.5, 1.5, int(np.prod(given))).reshape(given)
    if given == (3,):
        eps = 1e-6
        expected = (scalar_out(X + eps * tangent) - scalar_out(X - eps * tangent)) / (2 * eps)
        assert sg.jvp(scalar_out)(X, tangent)[1] == pytest.approx(expected, rel=1e-6)
        return
    with pytest.raises(GradientError, match="tangent of `x` is shaped"):
        sg.jvp(scalar_out)(X, tangent)
    with pytest.raises(GradientError, match="tangent of `x` is shaped"):
        sg.hvp(scalar_out)(X, tangent)


def test_pytree_cotangents():
    _, backward = sg.vjp(pair_out)(X.copy())
    good = (2.0, np.array([1.0, 0.0, -1.0]))
    expected = 2.0 * np.ones(3) + 3.0 * good[1]
    np.testing.assert_allclose(backward(good), expected)
    for bad in ((2.0,), (np.ones(3), good[1]), (2.0, np.ones(5)), np.ones(3)):
        with pytest.raises(GradientError):
            backward(bad)


def test_gradients_function_dy():
    grads = sg.gradients_function(vector_out)
    dy = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(grads(X.copy(), dy=dy)[0], fd_vjp(vector_out, dy), rtol=1e-6)
    with pytest.raises(GradientError, match="dy is shaped"):
        grads(X.copy(), dy=np.ones(5))
