"""A function that returns None on the path a call takes (it falls off its end, or says
``return`` alone) has no derivative there: every API raises, never a zero gradient. On
the other path the same function's derivatives match finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

NEGATIVE = np.array([-1.0, 0.5, 2.0])
POSITIVE = np.array([1.0, 0.5, 2.0])


def falls_off_the_end(x):
    if x[0] > 0:
        return np.sum(x * x)


def bare_return(x):
    if x[0] <= 0:
        return
    return np.sum(np.sin(x))


def returns_inside_a_loop(x):
    for i in range(3):
        if x[i] > 0 and x[0] > 0:
            return np.sum(x[i:] ** 3)


def returns_none_explicitly(x):
    y = np.sum(x * 2.0)
    if x[0] < 0:
        return None
    return y


def vector_or_none(x):
    if x[0] > 0:
        return np.tanh(x)


FUNCTIONS = [falls_off_the_end, bare_return, returns_inside_a_loop, returns_none_explicitly]
V = np.array([0.3, -1.0, 2.0])

APIS = {
    "grad": lambda f, x: sg.grad(f)(x),
    "value_and_grad": lambda f, x: sg.value_and_grad(f)(x),
    "grad_has_aux": lambda f, x: sg.grad(lambda y: (f(y), 1.0), has_aux=True)(x),
    "vjp": lambda f, x: sg.vjp(f)(x)[1](1.0),
    "vjp_has_aux": lambda f, x: sg.vjp(lambda y: (f(y), 1.0), has_aux=True)(x),
    "jvp": lambda f, x: sg.jvp(f)(x, V),
    "hvp": lambda f, x: sg.hvp(f)(x, V),
    "hessp": lambda f, x: sg.hessp(f)(x, V),
    "hessian": lambda f, x: sg.hessian(f)(x),
    "jacobian": lambda f, x: sg.jacobian(f)(x),
    "jacfwd": lambda f, x: sg.jacfwd(f)(x),
    "jacrev": lambda f, x: sg.jacrev(f)(x),
    "elementwise_grad": lambda f, x: sg.elementwise_grad(f)(x),
}


@pytest.mark.parametrize("api", sorted(APIS))
@pytest.mark.parametrize("f", FUNCTIONS + [vector_or_none], ids=lambda f: f.__name__)
def test_every_functional_api_raises(f, api):
    if api in ("grad", "value_and_grad", "grad_has_aux", "hvp", "hessp", "hessian") \
            and f is vector_or_none:
        pytest.skip("a scalar output only")
    for _ in range(2):   # the compiled function, called again
        with pytest.raises(sg.errors.NoneOutputError, match="returned None") as caught:
            APIS[api](f, NEGATIVE.copy())
        assert isinstance(caught.value, TypeError)


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_the_path_with_a_return_is_right(f):
    expected = numeric_grad(f, [POSITIVE.copy()], 0)
    np.testing.assert_allclose(sg.grad(f)(POSITIVE.copy()), expected, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(sg.jvp(f)(POSITIVE.copy(), V)[1], expected @ V, rtol=1e-6)


def test_scalar_arguments_raise_too():
    def f(x, y):
        if x > 0:
            return x * y
    with pytest.raises(sg.errors.NoneOutputError):
        sg.grad(f)(-1.0, 2.0)
    with pytest.raises(sg.errors.NoneOutputError):
        sg.grad(f, (0, 1))(-1.0, 2.0)
    assert sg.grad(f)(3.0, 2.0) == 2.0


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_eager_apis_raise(f):
    with pytest.raises(ValueError, match="returns None"):
        sg.gradients_function(f)(NEGATIVE.copy())
    variable = sg.Variable(NEGATIVE.copy())

    def reads_variable():
        return f(variable.value)
    with pytest.raises(ValueError, match="returns None"):
        sg.implicit_gradients(reads_variable)()
    with pytest.raises(ValueError, match="returns None"):
        sg.implicit_value_and_gradients(reads_variable)()


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_a_tape_gets_none_not_a_zero_gradient(f):
    compiled = sg.differentiable(f)
    for _ in range(3):   # the first call and the planned ones
        variable = sg.Variable(NEGATIVE.copy())
        with sg.GradientTape() as tape:
            y = compiled(variable)
        assert y is None
        with pytest.raises(TypeError, match="received None"):
            tape.gradient(y, variable)
