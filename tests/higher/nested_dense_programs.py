"""Functions that take a vjp, a dense Jacobian, a Hessian or an elementwise gradient
inside their own bodies, for tests/higher/test_nested_dense.py. Each docstring gives
the closed form of the function."""

import numpy as np

import srcgrad as sg


def weighted_square(a, y):
    return a * y ** 2


def trace_of_jacobian(x):
    """tr d/dy (x y^2) at y = x [1, 2, 3]: 2 x sum(y) = 12 x^2."""
    def inner(y):
        return x * y ** 2
    return np.trace(sg.jacobian(inner)(np.array([1.0, 2.0, 3.0]) * x))


def trace_of_jacfwd(x):
    """12 x^2, the Jacobian by forward mode, of a lambda."""
    return np.trace(sg.jacfwd(lambda y: x * y ** 2)(np.array([1.0, 2.0, 3.0]) * x))


def trace_of_jacrev(x):
    """12 x^2, the Jacobian by reverse mode, bound to a name first."""
    jac = sg.jacrev(lambda y: x * y ** 2)
    return np.trace(jac(np.array([1.0, 2.0, 3.0]) * x))


def trace_of_global_jacobian(x):
    """12 x^2, of a module-level function w.r.t. its second argument."""
    return np.trace(sg.jacobian(weighted_square, wrt=1)(x, np.array([1.0, 2.0, 3.0]) * x))


def jacobian_confusion(x):
    """x * d/dy (x + y) = x: an implementation that confuses the perturbations gives 2x."""
    return x * sg.jacobian(lambda y: x + y)(3.0)


def jacrev_confusion(x):
    return x * sg.jacrev(lambda y: x + y)(np.array([3.0]))[0, 0]


def vjp_confusion(x):
    value, pullback = sg.vjp(lambda y: x + y)(1.0)
    return x * pullback(1.0) + 0.0 * value


def hessian_confusion(x):
    """x * d^2/dy^2 (x y + y^2 / 2) = x."""
    return x * sg.hessian(lambda y: x * y + 0.5 * y ** 2)(2.0)


def elementwise_confusion(x):
    return x * sg.elementwise_grad(lambda y: x + y)(x)


def sum_of_hessian(x):
    """sum of the Hessian of x sum(y^3) at y = x [1, 2]: 6 x (x + 2 x) = 18 x^2."""
    def cubic(y):
        return x * np.sum(y ** 3)
    return np.sum(sg.hessian(cubic)(np.array([1.0, 2.0]) * x))


def sum_of_elementwise_grad(x):
    """x (cos x + cos 2x)."""
    return np.sum(sg.elementwise_grad(lambda y: x * np.sin(y))(np.array([1.0, 2.0]) * x))


def pullback_and_value(x):
    """2 x cos x + x sin x: the pullback of y -> x sin y at y = x, and the value."""
    def wave(y):
        return x * np.sin(y)
    value, pullback = sg.vjp(wave)(x)
    return pullback(2.0) + value


def pullback_of_global(a):
    """(1.5 * d/da [sin(a z) z] at z = 0.5) * a = 1.5 * 0.25 cos(a / 2) * a."""
    value, pullback = sg.vjp(curvature, wrt=1)(0.5, a)
    return pullback(1.5) * a


def curvature(z, a):
    return np.sin(a * z) * z


def pullback_in_a_loop(w):
    """Rows of the Jacobian of tanh(z * w) at z = [0.3, -0.2, 0.5] by repeated pullbacks,
    squared and summed, plus the value's norm."""
    z = np.array([0.3, -0.2, 0.5])
    value, pullback = sg.vjp(lambda v: np.tanh(v * w))(z)
    total = np.sum(value ** 2)
    for row in np.eye(3):
        total = total + np.sum(pullback(row) ** 2)
    return total


def gauss_newton_curvature(w):
    """sum of J J^T for the residual tanh(z * w) + z^2 w at z = [0.3, -0.2, 0.5]."""
    def residual(z):
        return np.tanh(z * w) + z ** 2 * w
    jac = sg.jacobian(residual)(np.array([0.3, -0.2, 0.5]))
    return np.sum(jac @ jac.T)


def newton_step_by_hessian(w):
    """One Newton step on y -> sum(w y^4 / 4 + y^2 / 2) from y = 1, through a dense
    Hessian: the new point's squared norm."""
    def objective(y):
        return np.sum(w * y ** 4 / 4 + y ** 2 / 2)
    y = np.ones(2)
    g = sg.grad(objective)(y)
    y = y - np.linalg.solve(sg.hessian(objective)(y), g)
    return np.sum(y ** 2)


def pullback_used_as_value(x):
    value, pullback = sg.vjp(lambda y: x * y)(1.0)
    return [pullback]


def vjp_with_aux(x):
    value, pullback, aux = sg.vjp(lambda y: (x * y, y), has_aux=True)(1.0)
    return pullback(1.0)


def vjp_not_unpacked(x):
    pair = sg.vjp(lambda y: x * y)(1.0)
    return pair[0]


def jacobian_of_two_arguments(x):
    return sg.jacobian(weighted_square, wrt=(0, 1))(x, 2.0)[0]
