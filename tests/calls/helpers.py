"""Checks shared by the tests of calls and parameters: the reverse gradient and the
forward-mode tangent against central finite differences (``tests.conftest``)."""

import numpy as np

import srcgrad as sg
from tests.conftest import directional_check, numeric_grad


def check_both_modes(f, args, wrt=0, rtol=1e-5, atol=1e-7):
    """``sg.grad`` against ``numeric_grad`` and ``sg.jvp`` against the central difference
    along a random direction, w.r.t. ``args[wrt]``."""
    grad = sg.grad(f, wrt=wrt)(*args)
    assert np.allclose(grad, numeric_grad(f, args, wrt), rtol=rtol, atol=atol)
    numeric, analytic = directional_check(f, args, wrt, grad)
    assert np.isclose(numeric, analytic, rtol=rtol, atol=atol)
    x = np.asarray(args[wrt], dtype=float)
    v = np.random.default_rng(7).standard_normal(x.shape)
    tangent = v if x.ndim else float(v)
    value, derivative = sg.jvp(f, wrt=wrt)(*args, tangent)
    assert np.allclose(value, f(*args))
    eps = 1e-6
    plus, minus = list(args), list(args)
    plus[wrt], minus[wrt] = x + eps * tangent, x - eps * tangent
    expected = (np.asarray(f(*plus)) - np.asarray(f(*minus))) / (2 * eps)
    assert np.allclose(derivative, expected, rtol=rtol, atol=atol)
    return grad


def implicit_gradient(f, variable, *args):
    """The gradient ``sg.implicit_gradients`` gives ``variable`` for ``f(*args)``."""
    pairs = sg.implicit_gradients(f)(*args)
    (grad,) = [g for g, v in pairs if v is variable]
    return grad
