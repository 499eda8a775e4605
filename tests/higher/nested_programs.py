"""Functions that take derivatives inside their own bodies (Newton steps, gradients
built inside an objective), for tests/higher/test_nested_derivatives.py."""

import numpy as np

import srcgrad as sg
from srcgrad import tfe


def siskind_pearlmutter(x):
    """x * d/dy (x + y): the inner derivative is 1 whatever x is, so d/dx is 1. An
    implementation that confuses the two perturbations gives 2."""
    def shift(y):
        return x + y
    return x * sg.grad(shift)(3.0)


def siskind_pearlmutter_lambda(x):
    return x * sg.grad(lambda y: x + y)(x)


def siskind_pearlmutter_bound(x):
    derivative = sg.grad(lambda y: x + y)
    return x * derivative(2.0 * x)


def siskind_pearlmutter_value_and_grad(x):
    value, slope = sg.value_and_grad(lambda y: x + y)(1.0)
    return x * slope + 0.0 * value


def siskind_pearlmutter_option_at_run_time(x):
    """An option that is not a literal: the derivative is resolved when it is called."""
    check = False
    return x * sg.grad(lambda y: x + y, check_nan=check)(1.0)


def scaled_square_slope(x):
    """d/dy (x y^2) at y = x is 2 x^2."""
    return sg.grad(lambda y: x * y ** 2)(x)


def newton_cube_root(a):
    """Three Newton steps for z^3 = a from z = 1; the step's derivative reads a."""
    def residual(z):
        return z ** 3 - a
    slope = sg.grad(residual)
    z = 1.0
    for _ in range(3):
        z = z - residual(z) / slope(z)
    return z


def newton_cube_root_closed(a):
    z = 1.0
    for _ in range(3):
        z = z - (z ** 3 - a) / (3 * z ** 2)
    return z


def gradient_penalty(w):
    """A loss with the squared norm of an input gradient built inside it."""
    def score(x):
        return np.sum(np.tanh(x * w) ** 2)
    g = sg.grad(score)(np.array([0.1, -0.4, 0.3]))
    return np.sum(g ** 2) + np.sum(w)


def helper_shared(x):
    """The differentiated local function calls another local function."""
    def act(z):
        return np.tanh(z * x)

    def inner(y):
        return act(y) * x
    return sg.grad(inner)(0.3) * x


def second_inside(x):
    """d^2/dy^2 (x y^3) at y = x is 6 x^2."""
    def cubic(y):
        return x * y ** 3
    return sg.grad(sg.grad(cubic))(x)


def third_order(x):
    """An inner derivative inside an inner derivative: 4 x^2."""
    def inner(y):
        return sg.grad(lambda z: x * y * z ** 2)(y)
    return sg.grad(inner)(x)


def named_wrt(x):
    def inner(a, b):
        return x * a * b ** 2
    by_name = sg.grad(inner, wrt="b")(1.0, x)              # 2 x^2
    both = sg.grad(inner, argnums=(0, 1))(x, 2.0)          # (4 x, 4 x^2)
    value, (da, db) = sg.value_and_grad(inner, (0, 1))(x, x)   # x^4, (x^3, 2 x^3)
    return by_name + both[0] + both[1] + value + da + db


def inner_jvp(x):
    def wave(y):
        return x * np.sin(y)
    return sg.jvp(wave)(x, 2.0)[1]        # 2 x cos(x)


def inner_hvp(x):
    def wave(y):
        return x * np.sin(y)
    return sg.hvp(wave)(x, 2.0)           # -2 x sin(x)


def curvature(z, a):
    return np.sin(a * z) * z


def global_jvp(a):
    return sg.jvp(curvature)(0.5, a, 1.0)[1] * a


def global_hvp(a):
    return sg.hvp(curvature)(0.5, a, 1.0) * a


def make_scaled(c):
    def outer(x):
        return sg.grad(lambda y: c * x * y ** 2)(x)   # 2 c x^2
    return outer


def local_jacobian(x):
    """d/dy (x y) = x, so d/dx is 1 (2 with the perturbations confused)."""
    def inner(y):
        return x * y
    return sg.jacobian(inner)(x)


def escaping_derivative(x):
    def inner(y):
        return x * y
    return [sg.grad(inner)]


def global_jacobian(a):
    """A Jacobian w.r.t. two arguments runs in srcgrad's own Python: refused."""
    return sg.jacobian(curvature, wrt=(0, 1))(0.5, a)[1] * a


def shadowed(x):
    def inner(y):
        return x * y
    derivative = sg.grad(inner)

    def uses(x):
        return derivative(x)
    return uses(2.0)


def inner_gradients_function(x):
    def inner(y):
        return x * y ** 2
    return sg.gradients_function(inner)(x)[0]          # 2 x^2


def inner_value_and_gradients_function(x):
    def inner(a, b):
        return x * a * b ** 2
    value, grads = tfe.value_and_gradients_function(inner, params=[1])(1.0, x)
    return value + grads[0]                             # x^3 + 2 x^2


def local_elementwise_grad(x):
    def inner(y):
        return x * y
    return sg.elementwise_grad(inner)(x)


def local_make_vjp(x):
    def inner(y):
        return x * y
    return tfe.make_vjp(inner)(x)[0]
