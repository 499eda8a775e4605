"""Outputs of one element, and module-level ``functools.partial`` callees.

``grad`` accepts an output of shape ``(1,)``, ``(1, 1)``... (one number, as autograd
takes it), and a ``functools.partial`` of a rule row, of a user function, with bound
literals or arrays, called directly or from an inlined helper, is the call of what it
wraps. Checked against central finite differences in reverse mode, forward mode and at
second order (Hessians), each gradient called twice.
"""

import functools

import numpy as np
import pytest

import srcgrad as sg

W = np.array([1.0, -2.0, 0.5])
psum = functools.partial(np.sum, axis=0)
pscale = functools.partial(np.multiply, W)


def _user(x, w=1.0, *, s=2.0):
    return np.sin(x) * w * s


puser = functools.partial(_user, w=3.0)
pkeep = functools.partial(np.sum, axis=(0,), keepdims=True)


def _helper(x):
    return psum(x) ** 2


def _fd_grad(f, x, eps=1e-6):
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        out[i] = (np.sum(f(x + e)) - np.sum(f(x - e))) / (2 * eps)
    return out


SIZE_ONE = [
    ("slice (1,)", lambda x: x[:1] ** 2),
    ("reshape (1, 1)", lambda x: np.reshape(np.sum(np.sin(x)), (1, 1))),
    ("keepdims (1, 1, 1)", lambda x: np.sum(x[None, None, :] ** 3, axis=2, keepdims=True)),
    ("dot (1,)", lambda x: np.dot(x[None, :], np.cos(x))),
]

PARTIALS = [
    ("sum axis", lambda x: np.sum(psum(x) ** 2)),
    ("bound array", lambda x: np.sum(pscale(x) * x)),
    ("user function", lambda x: np.sum(puser(x, s=0.5))),
    ("keepdims tuple", lambda x: np.sum(pkeep(x) ** 3)),
    ("inlined helper", lambda x: np.sum(_helper(x))),
]


def _check(f, x):
    grad = sg.grad(f)
    expected = _fd_grad(f, x)
    for _ in range(2):
        np.testing.assert_allclose(grad(x), expected, rtol=1e-6, atol=1e-7)
    v = np.random.default_rng(1).standard_normal(x.shape)
    _, tangent = sg.jvp(f)(x, v)
    np.testing.assert_allclose(np.sum(tangent), np.sum(expected * v), rtol=1e-6, atol=1e-7)
    hessian = np.reshape(sg.hessian(f)(x), (x.size, x.size))
    numeric = (_fd_grad(f, x + 1e-5 * v) - _fd_grad(f, x - 1e-5 * v)) / 2e-5
    np.testing.assert_allclose(hessian @ v.ravel(), numeric.ravel(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name, f", SIZE_ONE, ids=[c[0] for c in SIZE_ONE])
def test_grad_of_an_output_of_one_element(name, f):
    x = np.array([0.3, -1.2, 0.7])
    assert np.size(f(x)) == 1 and np.ndim(f(x)) >= 1
    _check(f, x)
    value, grad = sg.value_and_grad(f)(x)
    np.testing.assert_array_equal(value, f(x))


def test_an_output_of_several_elements_is_still_refused():
    with pytest.raises(TypeError, match="scalar output"):
        sg.grad(lambda x: x[:2] ** 2)(np.array([0.3, -1.2, 0.7]))


@pytest.mark.parametrize("name, f", PARTIALS, ids=[c[0] for c in PARTIALS])
def test_a_partial_is_the_call_of_what_it_wraps(name, f):
    x = np.array([[0.3, -1.2, 0.7], [1.1, 0.4, -0.6]])
    _check(f, x)


def test_a_rebound_partial_regenerates():
    global psum
    f = PARTIALS[0][1]
    x = np.array([[0.3, -1.2, 0.7], [1.1, 0.4, -0.6]])
    grad = sg.grad(f)
    before = grad(x)
    saved = psum
    try:
        psum = functools.partial(np.sum, axis=1)
        after = grad(x)
        np.testing.assert_allclose(after, _fd_grad(f, x), rtol=1e-6, atol=1e-7)
        assert not np.allclose(before, after)
    finally:
        psum = saved
