"""An attribute without floats (a counter, a flag, a cache of ints or strings) written
on an object being differentiated: the write happens in the primal, the gradient w.r.t.
the object is the one finite differences give (the attribute carries none); a float
written there is still refused."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import TransformError


class Model:
    def __init__(self, w):
        self.w = w
        self.calls = 0
        self.seen = False
        self.shapes = ()

    def loss(self, x):
        self.calls += 1
        self.seen = True
        self.shapes = self.shapes + (np.shape(x),)
        return np.sum(np.sin(self.w * x) * self.calls ** 0)


class Scaled(Model):
    def loss(self, x):
        self.calls = self.calls + 2
        return np.sum(self.w ** 2 * x)

    def bad(self, x):
        self.last = self.w * x   # a float: its derivative would not follow it
        return np.sum(self.last)


def through_method(m, x):
    return m.loss(x)


def direct(m, x):
    m.calls += 1
    m.tag = "done"
    return np.sum(np.tanh(m.w) * x)


CASES = [(through_method, Model), (through_method, Scaled), (direct, Model)]
SHAPES = [(), (1,), (3,), (2, 3)]


def numeric(f, m, x, h=1e-6):
    grad, base = np.zeros_like(m.w), m.w.copy()
    for i in range(base.size):
        for sign in (1, -1):
            m.w = base.copy()
            m.w.flat[i] += sign * h
            grad.flat[i] += sign * f(m, x) / (2 * h)
    m.w = base
    return grad


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("f, cls", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradient_wrt_the_object_with_a_counter_written(f, cls, shape):
    rng = np.random.default_rng(len(shape))
    m, x = cls(rng.normal(size=shape)), rng.normal(size=shape)
    df = sg.grad(f)
    for _ in range(2):   # called twice: the counter counts both primal runs
        before = m.calls
        g = df(m, x)
        assert m.calls > before
        expected = numeric(f, m, x)
        assert np.allclose(g.w, expected, atol=1e-5)
        assert g.calls in (0, 0.0, None)


@pytest.mark.parametrize("f, cls", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_forward_mode_and_vjp_agree(f, cls):
    rng = np.random.default_rng(7)
    m, x = cls(rng.normal(size=3)), rng.normal(size=3)
    v = rng.normal(size=3)
    value, backward = sg.vjp(f)(m, x)
    u = 0.7
    dm = backward(u)
    tangent = cls(v)
    tangent.calls, tangent.seen, tangent.shapes = 0.0, 0.0, ()
    _, jv = sg.jvp(f)(m, x, tangent)
    assert np.isclose(u * jv, np.sum(dm.w * v))                 # <u, J v> = <J^T u, v>
    assert np.isclose(jv, np.sum(numeric(f, m, x) * v), atol=1e-5)


def test_a_float_written_on_the_object_is_refused():
    m, x = Scaled(np.array([1.0, 2.0])), np.array([0.5, 0.25])
    with pytest.raises(TransformError, match=r"attribute `\.last`.*float"):
        sg.grad(lambda m, x: m.bad(x))(m, x)


def int_over_float(m, x):
    m.w = 0   # later reads see 0, not the argument's w: no derivative to give
    return np.sum(m.w * x)


def float_constant(m, x):
    m.calls = 2.5
    return np.sum(m.w * x) * m.calls


@pytest.mark.parametrize("f", [int_over_float, float_constant])
def test_a_float_attribute_replaced_or_a_float_constant_is_refused(f):
    m, x = Model(np.array([1.0, 2.0])), np.array([0.5, 0.25])
    with pytest.raises(TransformError, match="holds a float"):
        sg.grad(f)(m, x)
