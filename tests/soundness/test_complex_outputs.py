"""A gradient of a complex-valued output is not defined: grad, value_and_grad,
elementwise_grad, hvp and hessian raise a TypeError naming the API and the ways to ask
(a real function of the output; vjp or jvp for a holomorphic function) instead of
differentiating the real part silently. The ways it names give the derivative finite
differences give."""

import numpy as np
import pytest

import srcgrad as sg

X = np.array([0.3, -0.7, 1.1])
Z = 0.4 + 0.9j


def complex_sum(x):
    return np.sum(np.exp(1j * x) * x)


def complex_scalar(x):
    return np.sum(x * x) * (1.0 + 2.0j)


def complex_elementwise(x):
    return np.sin(x) * (0.5 - 1.0j)


def holomorphic(z):
    return z ** 3 + np.exp(z)


def complex_variants():
    for f in (complex_sum, complex_scalar):
        for dtype in (np.float64, np.complex128):
            yield f, dtype


APIS = {
    "sg.grad": lambda f, x: sg.grad(f)(x),
    "sg.value_and_grad": lambda f, x: sg.value_and_grad(f)(x),
    "sg.hvp": lambda f, x: sg.hvp(f)(x, np.ones_like(x)),
    "sg.hessian": lambda f, x: sg.hessian(f)(x),
    "sg.grad(has_aux)": lambda f, x: sg.grad(lambda v: (f(v), 0), has_aux=True)(x),
}


@pytest.mark.parametrize("api", sorted(APIS))
@pytest.mark.parametrize("f, dtype", list(complex_variants()),
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_refused_naming_the_ways_to_ask(f, dtype, api):
    x = X.astype(dtype)
    for _ in range(2):
        with pytest.raises(TypeError, match="requires a real output") as caught:
            APIS[api](f, x)
        text = str(caught.value)
        assert "np.real" in text and "sg.vjp" in text and "complex128" in text
        assert api.split("(")[0] in text.split(" requires")[0], text


def test_elementwise_grad_refuses_too():
    with pytest.raises(TypeError, match="sg.elementwise_grad requires a real output"):
        sg.elementwise_grad(complex_elementwise)(X)


def test_the_named_ways_are_right():
    h = 1e-6
    # a real function of the output
    real_part = sg.grad(lambda x: np.real(complex_sum(x)))(X)
    fd = [(np.real(complex_sum(X + h * e)) - np.real(complex_sum(X - h * e))) / (2 * h)
          for e in np.eye(3)]
    np.testing.assert_allclose(real_part, fd, rtol=1e-6)
    # a holomorphic function: vjp with the cotangent 1, and jvp with the tangent 1
    derivative = 3 * Z ** 2 + np.exp(Z)
    assert sg.vjp(holomorphic)(Z)[1](1.0) == pytest.approx(derivative)
    assert sg.jvp(holomorphic)(Z, 1.0)[1] == pytest.approx(derivative)
    assert (holomorphic(Z + h) - holomorphic(Z - h)) / (2 * h) == pytest.approx(derivative)


def test_real_outputs_still_differentiate_complex_inputs():
    def f(z):
        return np.sum(np.abs(z) ** 2)
    x = X + 0.5j
    value, gradient = sg.value_and_grad(f)(x)
    assert np.isrealobj(value)
    assert gradient.shape == x.shape
