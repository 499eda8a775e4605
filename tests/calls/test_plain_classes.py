"""Plain classes whose ``__init__`` only stores its arguments are differentiated like
dataclasses: fields built from differentiated values carry derivatives into methods,
``__call__`` and properties, in reverse and forward mode (hvp: the finite-difference
value or a srcgrad error, as for dataclasses), against central finite differences, each
derivative called twice. A class whose ``__init__`` computes is refused, naming it."""

import numpy as np
import pytest

import srcgrad as sg

V = np.array([0.3, -0.2, 0.5])
T = np.array([1.0, 0.5, -1.0])


class Layer:
    def __init__(self, W, b):
        self.W = W
        self.b = b

    def __call__(self, x):
        return np.tanh(self.W @ x + self.b)

    def norm(self):
        return np.sum(self.W ** 2) + self.b @ self.b


class Box:
    """A box."""

    def __init__(self, w, c=0.7):
        self.c = c
        self.w = w

    @property
    def norm2(self):
        return 1.0 + np.sum(self.w ** 2)

    def inner(self):
        return np.tanh(self.w) * self.c

    def outer(self):
        return np.sum(self.inner()) * self.c + self.norm2

    def __call__(self, u):
        return np.tanh(self.w[0] * u) + self.c * u


class Signed:
    def __init__(self, w, c=-0.7):
        self.w = w
        self.c = c

    def value(self):
        return np.sum(np.tanh(self.w)) * self.c


def negative_default(v):
    return Signed(v * 1.5).value() + Signed(v, v[0]).value()


class Scaled:
    def __init__(self, w):
        self.w = w * 2.0


def layer_called(v):
    L = Layer(np.outer(v, v), v * 0.5)
    return np.sum(L(v)) + 0.1 * L.norm()


def method_calls_method(v):
    return Box(v * 2.0, v[0] * v[1]).outer()


def called_twice_with_a_default(v):
    b = Box(v * 2.0)
    return b(b(0.5)) + b.c * np.sum(b.w)


def property_and_fields(v):
    b = Box(np.sin(v), v[2])
    return np.sum(b.inner()) + b.norm2 * b.c


def computes_in_init(v):
    return np.sum(Scaled(v).w)


def _fd(f, v, h=1e-6):
    return np.array([(f(v + h * e) - f(v - h * e)) / (2 * h) for e in np.eye(v.size)])


@pytest.mark.parametrize("f, hvp", [(layer_called, True), (method_calls_method, False),
                                    (called_twice_with_a_default, True),
                                    (property_and_fields, False), (negative_default, False)])
def test_plain_classes_in_every_mode(f, hvp):
    want = _fd(f, V)
    for _ in range(2):
        np.testing.assert_allclose(sg.grad(f)(V.copy()), want, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(sg.jvp(f)(V.copy(), T)[1], want @ T, rtol=1e-6, atol=1e-8)
        if hvp:   # a second derivative: the finite-difference value, or a srcgrad error
            try:
                got = sg.hvp(f)(V.copy(), T)
            except sg.SrcgradError:
                continue
            np.testing.assert_allclose(got, _fd(sg.grad(f), V).T @ T, rtol=1e-5, atol=1e-7)


def test_a_plain_class_is_a_structure_only_when_init_stores_its_arguments():
    from srcgrad.frontend.plain_classes import plain_init_fields

    assert plain_init_fields(Layer) == ("W", "b")
    assert plain_init_fields(Box) == ("w", "c")
    assert plain_init_fields(Signed) == ("w", "c")
    assert plain_init_fields(Scaled) is None

    class Child(Layer):
        pass

    assert plain_init_fields(Child) is None


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_a_class_computing_in_init_is_refused(mode):
    with pytest.raises(sg.MissingRuleError, match="`Scaled`, a class of your own whose "
                                                  "`__init__` does more than store"):
        if mode == "reverse":
            sg.grad(computes_in_init)(V.copy())
        else:
            sg.jvp(computes_in_init)(V.copy(), T)
