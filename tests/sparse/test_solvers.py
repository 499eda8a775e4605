"""SciPy's solvers fed sparse derivatives: ``solve_ivp`` (BDF, Radau) on the 2-D
Brusselator with ``jac=sg.jacobian(f, sparse=True)``, ``least_squares`` on the Broyden
tridiagonal problem, ``minimize(method="trust-constr")`` on the extended Rosenbrock
function with ``hess=sg.hessian(f, sparse=True)``. Each converges to the solution SciPy
finds with finite differences (or the known minimum), and the matrices equal the dense
ones at the points the solvers asked for."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.integrate import solve_ivp
from scipy.optimize import least_squares, minimize

import srcgrad as sg
from benchmarks.sparse_jacobian import brusselator, initial_state


class Recording:
    """``fn`` that keeps the points it was called at."""

    def __init__(self, fn):
        self.fn, self.points = fn, []

    def __call__(self, *args):
        self.points.append(args)
        return self.fn(*args)


@pytest.mark.parametrize("method", ["BDF", "Radau"])
def test_solve_ivp_brusselator(method):
    n = 6
    y0 = initial_state(n)
    jac = Recording(sg.jacobian(brusselator, 1, sparse=True))
    options = dict(t_span=(0.0, 1.0), y0=y0, args=(n,), method=method, rtol=1e-8,
                   atol=1e-10)
    ours = solve_ivp(brusselator, jac=jac, **options)
    pattern = sg.jacobian_sparsity(brusselator, 1)(0.0, y0, n)
    theirs = solve_ivp(brusselator, jac_sparsity=pattern, **options)   # finite differences
    assert ours.success and theirs.success and ours.njev >= 1
    np.testing.assert_allclose(ours.y[:, -1], theirs.y[:, -1], rtol=1e-6, atol=1e-8)
    assert ours.njev < theirs.nfev   # the sparse Jacobian in a handful of calls
    t, y, _ = jac.points[-1]
    got = jac.fn(t, y, n)
    assert isinstance(got, sp.csr_array)
    np.testing.assert_allclose(got.toarray(), sg.jacobian(brusselator, 1)(t, y, n),
                               rtol=1e-13, atol=1e-12)


def broyden_tridiagonal(x):
    left = np.concatenate([np.zeros(1), x[:-1]])
    right = np.concatenate([x[1:], np.zeros(1)])
    return (3.0 - 2.0 * x) * x + 1.0 - left - 2.0 * right


def test_least_squares_broyden_tridiagonal():
    x0 = -np.ones(60)
    jac = sg.jacobian(broyden_tridiagonal, sparse=True)
    ours = least_squares(broyden_tridiagonal, x0, jac=lambda x: jac(x), method="trf")
    pattern = sg.jacobian_sparsity(broyden_tridiagonal)(x0)
    assert pattern.nnz == 3 * 60 - 2
    theirs = least_squares(broyden_tridiagonal, x0, jac_sparsity=pattern, method="trf")
    assert ours.success and ours.cost < 1e-16
    np.testing.assert_allclose(ours.x, theirs.x, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(jac(ours.x).toarray(), sg.jacobian(broyden_tridiagonal)(ours.x),
                               rtol=1e-14, atol=1e-14)


def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def test_trust_constr_with_a_sparse_hessian():
    x0 = np.zeros(20)
    hess = Recording(sg.hessian(rosenbrock, sparse=True))
    options = dict(jac=sg.grad(rosenbrock), method="trust-constr",
                   options={"gtol": 1e-10, "xtol": 1e-12})
    found = minimize(rosenbrock, x0, hess=hess, **options)
    by_differences = minimize(rosenbrock, x0, hess="2-point", **options)
    assert found.success and by_differences.success
    np.testing.assert_allclose(found.x, np.ones(20), rtol=1e-8)   # the known minimum
    np.testing.assert_allclose(found.x, by_differences.x, rtol=1e-8)
    (x,) = hess.points[-1]
    got = hess.fn(x)
    assert got.nnz == 3 * 20 - 2
    np.testing.assert_allclose(got.toarray(), sg.hessian(rosenbrock)(x), rtol=1e-13,
                               atol=1e-10)
