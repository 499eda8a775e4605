"""autograd's operators (``deriv``, ``holomorphic_grad``, ``make_jvp``, ``make_hvp``,
``grad_and_aux``, ``hessian_tensor_product``, ``tensor_jacobian_product``,
``make_ggnvp``), autograd's ``argnum=`` and ``grad(functools.partial(...))``: each
against central differences or a closed form, real and complex where defined, over
0-d, size-1 and larger shapes, each derivative function called twice."""

import functools
import warnings

import numpy as np
import pytest

import srcgrad as sg

SHAPES = [(), (1,), (3,), (2, 3)]
H = 1e-6


def point(shape, seed, complex_=False):
    rs = np.random.RandomState(seed)
    x = rs.uniform(0.2, 0.9, shape)
    return x + 1j * rs.uniform(-0.5, 0.5, shape) if complex_ else x


def central(f, x, v):
    """The directional derivative of ``f`` at ``x`` along ``v``, central differences."""
    return (f(x + H * v) - f(x - H * v)) / (2 * H)


def twice(function, *args):
    first, second = function(*args), function(*args)
    np.testing.assert_allclose(first, second, rtol=0, atol=0)
    return first


def elementwise(x):
    return np.sin(x) * x + x ** 3


def elementwise_derivative(x):
    return np.cos(x) * x + np.sin(x) + 3 * x ** 2


def coupled(x):
    """``sum(sin x) + sum(x)**2``: gradient ``cos x + 2 sum x``, Hessian
    ``diag(-sin x) + 2``."""
    return np.sum(np.sin(x)) + np.sum(x) ** 2


def coupled_hvp(x, v):
    return -np.sin(x) * v + 2 * np.sum(v)


def scaled(a, x):
    return a * coupled(x)


def holomorphic(z):
    return np.sum(np.exp(z) * z ** 2)


def holomorphic_derivative(z):
    return np.exp(z) * (z ** 2 + 2 * z)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("complex_", [False, True])
def test_deriv_is_the_derivative_along_ones(shape, complex_):
    x = point(shape, 1, complex_)
    got = twice(sg.deriv(elementwise), x)
    np.testing.assert_allclose(got, central(elementwise, x, np.ones(shape)), rtol=1e-6)
    np.testing.assert_allclose(got, elementwise_derivative(x), rtol=1e-10)


def test_deriv_of_a_python_float_and_of_a_second_argument():
    assert np.isclose(twice(sg.deriv(elementwise), 0.7), elementwise_derivative(0.7))
    np.testing.assert_allclose(twice(sg.deriv(scaled, 0), 1.5, point((3,), 2)),
                               coupled(point((3,), 2)))


@pytest.mark.parametrize("shape", SHAPES)
def test_holomorphic_grad_is_the_complex_derivative(shape):
    z = point(shape, 3, complex_=True)
    got = twice(sg.holomorphic_grad(holomorphic), z)
    np.testing.assert_allclose(got, holomorphic_derivative(z), rtol=1e-10)
    # along the real axis of each entry, the derivative of a holomorphic function
    for index in np.ndindex(*shape):
        e = np.zeros(shape)
        e[index] = 1.0
        np.testing.assert_allclose(got[index], central(holomorphic, z, e), rtol=1e-6)


def test_holomorphic_grad_warns_on_a_real_input_and_refuses_a_vector_output():
    with pytest.warns(UserWarning, match="not complex"):
        assert np.isclose(sg.holomorphic_grad(holomorphic)(0.5), holomorphic_derivative(0.5))
    with pytest.raises(sg.SrcgradError, match="scalar output"):
        sg.holomorphic_grad(elementwise)(point((3,), 4, True))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("complex_", [False, True])
def test_make_jvp_matches_central_differences(shape, complex_):
    x, v = point(shape, 5, complex_), point(shape, 6, complex_)
    at = sg.make_jvp(elementwise)(x)
    value, product = twice(lambda: at(v)[0]), twice(lambda: at(v)[1])
    np.testing.assert_allclose(value, elementwise(x), rtol=1e-12)
    np.testing.assert_allclose(product, central(elementwise, x, v), rtol=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
def test_make_hvp_and_hessian_tensor_product_are_the_hessian_product(shape):
    x, v = point(shape, 7), point(shape, 8) - 0.5
    hvp, gradient = sg.make_hvp(coupled)(x)
    np.testing.assert_allclose(gradient, np.cos(x) + 2 * np.sum(x), rtol=1e-12)
    np.testing.assert_allclose(twice(hvp, v), coupled_hvp(x, v), rtol=1e-10)
    product = sg.hessian_tensor_product(coupled)
    np.testing.assert_allclose(twice(product, x, v), coupled_hvp(x, v), rtol=1e-10)
    np.testing.assert_allclose(sg.hessian_vector_product(coupled)(x, v), coupled_hvp(x, v),
                               rtol=1e-10)
    gradient_fd = central(lambda y: np.cos(y) + 2 * np.sum(y), x, v)
    np.testing.assert_allclose(product(x, v), gradient_fd, rtol=1e-6)


def test_hessian_products_with_respect_to_a_later_argument():
    x, v = point((3,), 9), point((3,), 10)
    np.testing.assert_allclose(twice(sg.hessian_tensor_product(scaled, 1), 2.0, x, v),
                               2.0 * coupled_hvp(x, v), rtol=1e-10)
    hvp, _ = sg.make_hvp(scaled, 1)(2.0, x)
    np.testing.assert_allclose(twice(hvp, v), 2.0 * coupled_hvp(x, v), rtol=1e-10)


def outer_sine(x, w):
    return np.outer(np.sin(x), w)


@pytest.mark.parametrize("n", [1, 3])
def test_tensor_jacobian_product_contracts_the_leading_axes(n):
    x, w = point((n,), 11), point((2,), 12)
    full = point((n, 2), 13)
    # the whole output contracted: <V, J u> = <J^T V, u>, J u by central differences
    got = twice(sg.tensor_jacobian_product(outer_sine), x, w, full)
    u = point((n,), 14)
    assert np.isclose(np.sum(got * u), np.sum(full * central(lambda y: outer_sine(y, w), x, u)))
    # the leading axis contracted: the Jacobian of (V . sin x) w, shape (2, n)
    v = point((n,), 15)
    got = twice(sg.tensor_jacobian_product(outer_sine), x, w, v)
    np.testing.assert_allclose(got, w[:, None] * (v * np.cos(x))[None, :], rtol=1e-12)
    np.testing.assert_allclose(sg.vector_jacobian_product(outer_sine)(x, w, v), got)


def layer(x):
    return np.tanh(np.array([[1.0, 0.5, -0.3], [0.2, -1.1, 0.4]]) @ x)


def layer_jacobian(x):
    a = np.array([[1.0, 0.5, -0.3], [0.2, -1.1, 0.4]])
    return (1 - np.tanh(a @ x) ** 2)[:, None] * a


def quartic(y):
    return np.sum(2.0 * y ** 2 + y ** 4)


def test_make_ggnvp_is_the_gauss_newton_product():
    x, v = point((3,), 16), point((3,), 17)
    J = layer_jacobian(x)
    got = twice(sg.make_ggnvp(layer)(x), v)
    np.testing.assert_allclose(got, J.T @ (J @ v), rtol=1e-10)
    y = layer(x)
    got = twice(sg.make_ggnvp(layer, quartic)(x), v)
    np.testing.assert_allclose(got, J.T @ ((4 + 12 * y ** 2) * (J @ v)), rtol=1e-10)


def with_aux(x):
    return coupled(x), x * 2


def test_grad_and_aux():
    x = point((3,), 18)
    gradient, aux = sg.grad_and_aux(with_aux)(x)
    np.testing.assert_allclose(gradient, np.cos(x) + 2 * np.sum(x), rtol=1e-12)
    np.testing.assert_allclose(aux, 2 * x)


def two(a, x, b=1.0):
    return np.sum(a * np.sin(x)) * b


def real_two(a, x):
    return np.real(two(a, x))


@pytest.mark.parametrize("complex_", [False, True])
def test_argnum_selects_like_wrt(complex_):
    a, x = point((3,), 19, complex_), point((3,), 20)
    loss = real_two if complex_ else two
    da, dx = twice(lambda: sg.grad(loss, argnum=[0, 1])(a, x)[0]), \
        sg.grad(loss, argnum=[0, 1])(a, x)[1]
    np.testing.assert_allclose(dx, np.real(a) * np.cos(x), rtol=1e-12)
    np.testing.assert_allclose(da, np.sin(x), rtol=1e-12)
    (only,) = sg.grad(loss, argnum=[1])(a, x)
    np.testing.assert_allclose(only, dx)
    value, (dx2, da2) = sg.value_and_grad(loss, argnum=(1, 0))(a, x)
    for got, expected in ((dx2, dx), (da2, da), (value, loss(a, x))):
        np.testing.assert_allclose(got, expected)


def test_argnum_refuses_bad_values():
    with pytest.raises(TypeError, match="argnum"):
        sg.grad(two, argnum=1, argnums=1)
    with pytest.raises(TypeError, match="argnum"):
        sg.grad(two, argnum="x")
    with pytest.raises(TypeError, match="argnum"):
        sg.deriv(two, argnum=1.0)
    with pytest.raises(TypeError, match="one int argnum"):
        sg.tensor_jacobian_product(two, (0, 1))


def test_a_partials_bound_arguments_are_constants():
    a, x = point((3,), 21), point((3,), 22)
    by_keyword = functools.partial(two, b=3.0)
    np.testing.assert_allclose(twice(sg.grad(by_keyword), a, x), 3 * np.sin(x), rtol=1e-12)
    np.testing.assert_allclose(sg.grad(by_keyword, wrt="b")(a, x), two(a, x), rtol=1e-12)
    by_position = functools.partial(two, a)
    np.testing.assert_allclose(twice(sg.grad(by_position), x), a * np.cos(x), rtol=1e-12)
    value, g = sg.value_and_grad(by_position)(x, b=2.0)
    np.testing.assert_allclose(value, two(a, x, 2.0), rtol=1e-12)
    np.testing.assert_allclose(g, 2 * a * np.cos(x), rtol=1e-12)
    v = point((3,), 23)
    np.testing.assert_allclose(sg.jvp(by_position)(x, v)[1],
                               central(lambda y: two(a, y), x, v), rtol=1e-6)
    np.testing.assert_allclose(sg.hvp(by_position)(x, v), -a * np.sin(x) * v, rtol=1e-12)
    with pytest.raises(ValueError, match="out of range"):
        sg.grad(by_position, 2)


def test_other_partials_are_refused():
    class Partial(functools.partial):
        pass

    with pytest.raises(sg.TransformError, match="subclass"):
        sg.grad(Partial(two, b=1.0))
    with pytest.raises(sg.TransformError, match="Python function"):
        sg.grad(functools.partial(np.multiply, 2.0))


def test_bad_inputs_get_clear_errors():
    x = point((3,), 24)
    with pytest.raises(ValueError, match="leading axes"):
        sg.tensor_jacobian_product(outer_sine)(x, np.ones(2), np.ones(4))
    with pytest.raises(TypeError, match="float or complex"):
        sg.deriv(elementwise)(3)
    with pytest.raises(TypeError, match="tensor"):
        sg.hessian_tensor_product(coupled)()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sg.holomorphic_grad(holomorphic)(1.0 + 0.5j)   # complex: no warning
