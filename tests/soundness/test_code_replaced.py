"""A function whose code is replaced in place (IPython's autoreload swaps ``__code__``)
is the same object with another body: code generated from the old body must not be
reused for it.

A callee's ``__code__`` is guarded like its binding (the derivative made before the
change hands over to one generated for the new body); ``sg.grad(f)`` made again after
``f``'s own code changed generates anew instead of taking the cached unit.
"""

import numpy as np

import srcgrad as sg

X = np.array([0.5, 1.0, -2.0])


def _numeric(f, x, eps=1e-6):
    out = np.zeros_like(x)
    for i in range(x.size):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        out[i] = (f(up) - f(down)) / (2 * eps)
    return out


def _make_callee_pair():
    def helper(z):
        return z * z

    def outer(x):
        return np.sum(helper(x))

    return helper, outer


def test_callee_code_swapped_after_the_derivative_was_made():
    helper, outer = _make_callee_pair()
    g = sg.grad(outer)
    np.testing.assert_allclose(g(X), _numeric(outer, X), atol=1e-6)
    helper.__code__ = (lambda z: np.sin(z) * 3.0).__code__
    np.testing.assert_allclose(g(X), _numeric(outer, X), atol=1e-6)
    np.testing.assert_allclose(sg.grad(outer)(X), _numeric(outer, X), atol=1e-6)


def test_own_code_swapped_then_differentiated_again():
    def top(x):
        return np.sum(x * x)

    np.testing.assert_allclose(sg.grad(top)(X), 2 * X)
    top.__code__ = (lambda x: np.sum(np.sin(x))).__code__
    np.testing.assert_allclose(sg.grad(top)(X), np.cos(X), atol=1e-12)
    np.testing.assert_allclose(sg.value_and_grad(top)(X)[1], np.cos(X), atol=1e-12)
