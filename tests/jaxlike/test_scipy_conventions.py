"""SciPy's calling conventions: ``minimize(f, x0, args=args, jac=, hess=, hessp=)``
calls ``jac(x, *args)``, ``hess(x, *args)`` and ``hessp(x, p, *args)``. ``sg.grad(f)``
and ``sg.hessian(f)`` take ``f``'s own arguments; ``sg.hessp(f)`` puts the vector second
(``sg.hvp(f)`` takes it last). Every method that takes ``jac``, ``hess`` or ``hessp``
must land on the known minimum, with extra arguments given by ``args=``."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

scipy_optimize = pytest.importorskip("scipy.optimize")

CENTER = np.array([0.41, 1.165, 2.0])
WEIGHTS = np.array([1.0, 2.5, 0.5])
START = np.array([2.0, -1.0, 0.5])


def objective(x, center, weights):
    """Strictly convex, smallest at ``x == center`` (cosh and a coupling term)."""
    d = x - center
    return np.sum(weights * np.cosh(d)) + 0.5 * np.sum(d) ** 2 + 0.25 * np.sum(d ** 4)


ARGS = (CENTER, WEIGHTS)
JAC_ONLY = ["BFGS", "CG", "L-BFGS-B", "SLSQP"]
HESSP = ["Newton-CG", "trust-ncg", "trust-krylov", "trust-constr"]
HESS = HESSP + ["trust-exact", "dogleg"]


def check_minimum(result):
    assert result.success, result.message
    np.testing.assert_allclose(result.x, CENTER, atol=1e-5)


@pytest.mark.parametrize("method", JAC_ONLY + HESS)
def test_jac(method):
    options = {} if method in JAC_ONLY else {"hess": sg.hessian(objective)}
    if method == "SLSQP":
        options["tol"] = 1e-12   # (its default stops 1e-3 away)
    check_minimum(scipy_optimize.minimize(objective, START, args=ARGS, method=method,
                                          jac=sg.grad(objective), **options))


@pytest.mark.parametrize("method", HESS)
def test_hess(method):
    check_minimum(scipy_optimize.minimize(objective, START, args=ARGS, method=method,
                                          jac=sg.grad(objective),
                                          hess=sg.hessian(objective)))


@pytest.mark.parametrize("method", HESSP)
def test_hessp(method):
    check_minimum(scipy_optimize.minimize(objective, START, args=ARGS, method=method,
                                          jac=sg.grad(objective),
                                          hessp=sg.hessp(objective)))


def fd_hessian(x):
    def row(i):
        return numeric_grad(lambda y: numeric_grad(objective, [y, *ARGS], 0)[i], [x], 0,
                            eps=1e-4)
    return np.stack([row(i) for i in range(x.size)])


@pytest.mark.parametrize("x", [START, CENTER + 0.3, np.array([0.0, 0.0, 0.0])])
def test_hessp_argument_order_against_finite_differences(x):
    p = np.array([0.7, -1.3, 0.2])
    expected = fd_hessian(x) @ p
    for _ in range(2):
        np.testing.assert_allclose(sg.hessp(objective)(x, p, *ARGS), expected, rtol=1e-4)
        np.testing.assert_allclose(sg.hvp(objective)(x, *ARGS, p), expected, rtol=1e-4)


def test_hessp_with_a_tuple_wrt_and_by_name():
    def f(a, scale, b):
        return scale * np.sum(a ** 2 * b) + np.sum(np.sin(a * b))
    a, b, scale = np.array([0.3, -0.2]), np.array([1.1, 0.4]), 1.7
    va, vb = np.array([1.0, 0.5]), np.array([-0.5, 2.0])
    h = 1e-5
    fd = (sg.grad(f, (0, 2))(a + h * va, scale, b + h * vb)[0]
          - sg.grad(f, (0, 2))(a - h * va, scale, b - h * vb)[0]) / (2 * h)
    got = sg.hessp(f, wrt=("a", "b"))(a, (va, vb), scale, b)
    np.testing.assert_allclose(got[0], fd, rtol=1e-5)
    with pytest.raises(TypeError, match=r"\(x, p, \*args\)"):
        sg.hessp(f)(a)
