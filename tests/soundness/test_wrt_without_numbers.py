"""A derivative w.r.t. an argument that holds no number (a string, None, a bool, a
container or object with none inside) is an error naming the argument in every API,
never ``{}`` or a zero. Ints are numbers: srcgrad differentiates an int argument as the
float it converts to, checked here against finite differences."""

import types

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import NotDifferentiableArgumentError

X = np.array([1.0, 2.0, 0.5])


def scaled(x, mode):
    if isinstance(mode, str) and mode == "square":
        return np.sum(x * x)
    return np.sum(x) * 2.0


NO_NUMBER = {
    "str": "square",
    "None": None,
    "bool": True,
    "dict_of_str": {"a": "b"},
    "list_of_none": [None, "x"],
    "str_array": np.array(["a", "b"]),
    "bool_array": np.array([True, False]),
    "object": types.SimpleNamespace(label="run", flags=(None, False)),
}

APIS = {
    "grad": lambda w, a: sg.grad(scaled, wrt=w)(X, a),
    "value_and_grad": lambda w, a: sg.value_and_grad(scaled, wrt=w)(X, a),
    "grad_tuple": lambda w, a: sg.grad(scaled, wrt=(0, w))(X, a),
    "vjp": lambda w, a: sg.vjp(scaled, wrt=w)(X, a)[1](1.0),
    "jvp": lambda w, a: sg.jvp(scaled, wrt=w)(X, a, 1.0),
    "hessian": lambda w, a: sg.hessian(scaled, wrt=w)(X, a),
    "jacobian": lambda w, a: sg.jacobian(scaled, wrt=w)(X, a),
    "jacfwd": lambda w, a: sg.jacfwd(scaled, wrt=w)(X, a),
    "jacrev": lambda w, a: sg.jacrev(scaled, wrt=w)(X, a),
}


@pytest.mark.parametrize("wrt", ["mode", 1])
@pytest.mark.parametrize("api", sorted(APIS))
@pytest.mark.parametrize("kind", sorted(NO_NUMBER))
def test_no_number_is_an_error_naming_the_argument(kind, api, wrt):
    for _ in range(2):
        with pytest.raises((NotDifferentiableArgumentError, TypeError), match="mode"):
            APIS[api](wrt, NO_NUMBER[kind])


def test_the_error_is_a_srcgrad_type_error():
    with pytest.raises(NotDifferentiableArgumentError) as caught:
        sg.grad(scaled, wrt="mode")(X, "square")
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, sg.SrcgradError)
    assert "`mode`" in str(caught.value) and "str" in str(caught.value)


def power(x, n):
    return np.sum(x ** n)


@pytest.mark.parametrize("n", [2, 3, np.int64(4)])
def test_an_int_is_differentiated_as_a_float(n):
    h = 1e-6
    expected = (power(X, float(n) + h) - power(X, float(n) - h)) / (2 * h)
    np.testing.assert_allclose(sg.grad(power, wrt="n")(X, n), expected, rtol=1e-6)
    np.testing.assert_allclose(sg.jvp(power, wrt="n")(X, n, 1.0)[1], expected, rtol=1e-6)


def test_a_structure_holding_a_number_somewhere_is_differentiated():
    def f(x, params):
        return np.sum(x) * params["scale"] + len(params["name"])
    g = sg.grad(f, wrt="params")(X, {"scale": 1.5, "name": "run"})
    assert g["scale"] == pytest.approx(np.sum(X))


def with_empty(x, empty):
    return np.sum(x ** 2) + len(empty)


@pytest.mark.parametrize("empty", [(), [], {}, ((), {}), {"a": []}], ids=repr)
def test_an_empty_container_is_the_space_without_coordinates(empty):
    """Its derivative is the same empty container (autograd's and JAX's), in each API."""
    for _ in range(2):
        assert sg.grad(with_empty, wrt=1)(X, empty) == empty
        assert sg.grad(with_empty, wrt=(0, 1))(X, empty)[1] == empty
        assert sg.vjp(with_empty, wrt=1)(X, empty)[1](1.0) == empty
        assert sg.jvp(with_empty, wrt=1)(X, empty, empty)[1] == 0.0
