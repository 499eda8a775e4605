"""``np.std`` and ``np.var`` on edge shapes, against central finite differences.

The standard deviation of one element (a 0-d array, shape ``(1,)``, or an axis of length
one) is the constant 0: its derivative is 0 at every order, in both modes (it was nan:
``g / ans`` with ``ans == 0``). Generated over dtypes (real, complex), shapes (0-d, size
one, an axis of length one next to longer ones, broadcast-free general shapes), ``ddof``
and ``keepdims``; reverse and forward mode at first order, the Hessian at second order.
"""

import itertools

import numpy as np
import pytest

import srcgrad as sg

# (shape, axis): the reduced axes hold one element in the first four
SHAPES = [((), None), ((1,), None), ((1, 3), 0), ((3, 1), 1), ((1, 1), None),
          ((4,), None), ((2, 3), 1), ((2, 3), None)]
CASES = [(fn, shape, axis, ddof, keepdims, dtype)
         for (shape, axis), fn, ddof, keepdims, dtype in itertools.product(
             SHAPES, ("std", "var"), (0, 1), (False, True), ("real", "complex"))
         if ddof == 0 or int(np.prod([shape[a] for a in ([axis] if axis is not None
                                                         else range(len(shape)))])) > 1]


def _loss(fn, axis, ddof, keepdims, weights):
    moment = getattr(np, fn)

    def f(x):
        return np.sum(weights * moment(x, axis=axis, ddof=ddof, keepdims=keepdims))
    return f


def _point(shape, dtype, rng):
    x = rng.standard_normal(shape)
    if dtype == "complex":
        x = x + 1j * rng.standard_normal(shape)
    return x


def _fd(f, x, v, eps=1e-6):
    return (f(x + eps * v) - f(x - eps * v)) / (2 * eps)


def _case(fn, shape, axis, ddof, keepdims, dtype):
    rng = np.random.default_rng(len(shape) * 7 + ddof + keepdims)
    out_shape = np.shape(getattr(np, fn)(np.ones(shape), axis=axis, keepdims=keepdims))
    weights = 1.0 + rng.random(out_shape)
    return _loss(fn, axis, ddof, keepdims, weights), _point(shape, dtype, rng), rng


@pytest.mark.parametrize("fn, shape, axis, ddof, keepdims, dtype", CASES)
def test_first_order_reverse_and_forward(fn, shape, axis, ddof, keepdims, dtype):
    f, x, rng = _case(fn, shape, axis, ddof, keepdims, dtype)
    grad = sg.grad(f)
    for _ in range(2):
        g = grad(x)
        assert np.all(np.isfinite(g)) and np.shape(g) == np.shape(x)
        # the real direction and, for complex x, the imaginary one
        for v in [rng.standard_normal(shape)] + (
                [1j * rng.standard_normal(shape)] if dtype == "complex" else []):
            numeric = _fd(f, x, v)
            reverse = float(np.real(np.sum(g * v)))   # (g: conj(df/dx + i df/dy))
            assert np.isclose(reverse, numeric, rtol=1e-6, atol=1e-7), (reverse, numeric)
            _, tangent = sg.jvp(f)(x, v)
            assert np.isclose(float(np.real(tangent)), numeric, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("fn, shape, axis, ddof, keepdims",
                         list(dict.fromkeys(c[:5] for c in CASES if c[3] == 0 and not c[4])))
def test_second_order(fn, shape, axis, ddof, keepdims):
    f, x, rng = _case(fn, shape, axis, ddof, keepdims, "real")
    grad = sg.grad(f)
    hessian = np.reshape(sg.hessian(f)(x), (np.size(x), np.size(x)))
    v = rng.standard_normal(shape)
    numeric = np.ravel(_fd(lambda y: np.asarray(grad(y)), x, v))
    np.testing.assert_allclose(hessian @ np.ravel(v), numeric, rtol=1e-5, atol=1e-6)
    _, hvp = sg.jvp(grad)(x, v)
    np.testing.assert_allclose(np.ravel(hvp), numeric, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape, axis", SHAPES[:5])
def test_one_element_std_is_constant(shape, axis):
    """The derivatives of the constant 0 are exactly 0 (not merely close)."""
    def f(x):
        return np.sum(np.std(x, axis=axis))

    x = np.full(shape, 1.5)
    assert np.all(np.asarray(sg.grad(f)(x)) == 0.0)
    assert np.all(np.asarray(sg.hessian(f)(x)) == 0.0)
    assert np.all(np.asarray(sg.jvp(f)(x, np.ones(shape))[1]) == 0.0)
