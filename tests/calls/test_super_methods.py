"""``super().method(...)`` in a method of a dataclass: the method ``super()`` finds is
called with ``self`` as its argument, so ``self``'s fields carry their derivatives into
it; reverse and forward mode against central finite differences, called twice."""

import dataclasses

import numpy as np
import pytest

import srcgrad as sg

V = np.array([0.3, -0.2, 0.5])
T = np.array([1.0, 0.5, -1.0])


@dataclasses.dataclass
class Base:
    w: np.ndarray

    def apply(self, u):
        return np.tanh(self.w * u)


@dataclasses.dataclass
class Child(Base):
    b: float = 0.0

    def apply(self, u):
        return super().apply(u) * 0.8 + self.b


@dataclasses.dataclass
class GrandChild(Child):
    def apply(self, u):
        return super().apply(u * 2.0) ** 2


def child(v):
    return np.sum(Child(v, v[0] * 0.3).apply(0.5))


def grandchild(v):
    return np.sum(GrandChild(np.sin(v), 0.3).apply(v[1]))


def _fd(f, v, h=1e-6):
    return np.array([(f(v + h * e) - f(v - h * e)) / (2 * h) for e in np.eye(v.size)])


@pytest.mark.parametrize("f", [child, grandchild])
def test_super_in_both_modes(f):
    want = _fd(f, V)
    for _ in range(2):
        np.testing.assert_allclose(sg.grad(f)(V.copy()), want, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(sg.jvp(f)(V.copy(), T)[1], want @ T, rtol=1e-6, atol=1e-8)
