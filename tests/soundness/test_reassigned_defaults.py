"""``f.__defaults__`` reassigned after a derivative was made and run: a callee's new
defaults are used (guarded with the callee: the code is generated again), a derivative
made again uses the function's own new defaults, and one made before raises naming them
instead of differentiating at the old ones. Against central finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import TransformError
from tests.conftest import numeric_grad

X = np.array([0.3, -0.8, 1.2])


def fd(f, x):
    return numeric_grad(lambda v: f(v.copy()), [x.copy()], 0)


def make():
    """Fresh functions (their defaults are reassigned by the tests)."""
    def scale(x, k=2.0):
        return x * k

    def power(x, n=2):
        return x ** n

    def f(x, k=2.0, *, shift=0.5):
        return np.sum(np.sin(x) * k + shift * x) + np.sum(scale(x)) + np.sum(power(x))

    return f, scale, power


@pytest.mark.parametrize("callee, new", [("scale", (5.0,)), ("power", (3,))])
def test_a_callee_s_reassigned_defaults_are_used(callee, new):
    f, scale, power = make()
    for api in (sg.grad, lambda g: (lambda x: sg.jvp(g)(x, np.ones_like(x))[1])):
        df = api(f)
        df(X)
        {"scale": scale, "power": power}[callee].__defaults__ = new
        expected = fd(f, X)
        got = df(X)
        if api is sg.grad:
            assert np.allclose(got, expected, atol=1e-5)
        else:
            assert np.isclose(got, np.sum(expected), atol=1e-5)
        {"scale": scale, "power": power}[callee].__defaults__ = \
            {"scale": (2.0,), "power": (2,)}[callee]


@pytest.mark.parametrize("field, new", [("__defaults__", (3.0,)),
                                        ("__kwdefaults__", {"shift": -1.5})])
def test_the_function_s_own_reassigned_defaults(field, new):
    f, _, _ = make()
    made_before, jvp_before = sg.grad(f), sg.jvp(f)
    made_before(X)
    jvp_before(X, X)
    setattr(f, field, new)
    for before in (lambda: made_before(X), lambda: jvp_before(X, X)):
        with pytest.raises(TransformError, match=r"f\.__defaults__ .*was reassigned"):
            before()
    for _ in range(2):
        assert np.allclose(sg.grad(f)(X), fd(f, X), atol=1e-5)
        assert np.isclose(sg.jvp(f)(X, np.ones(3))[1], np.sum(fd(f, X)), atol=1e-5)
