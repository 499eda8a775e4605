"""Programs whose calls srcgrad resolves only when they run (``_sg.dynamic_forward``,
``_sg.dynamic_jvp``): a function passed as a value, called with positional and keyword
arguments, a bound method of a global object, an ndarray method on a value not proven
an array (``x.reshape(...)``); and programs whose forward sweep iterates with
``_sg.tangent_pairs`` or reads fields with ``_sg.field_tangent`` (loops, NamedTuples,
dataclasses). Each is ``x -> float`` for the order checks."""

import dataclasses
import functools
from typing import NamedTuple

import numpy as np


def smooth(x, scale=1.0):
    return np.sin(scale * x) * x


def weighted(x, b=1.0):
    return np.tanh(x) * b


class Model:
    def __init__(self, w):
        self.w = w

    def energy(self, x):
        return np.sum(np.cos(self.w * x) * x ** 2)


MODEL = Model(np.array([0.5, -1.5, 2.0, 0.25, 1.0, -0.75]))


def call(fn, x):
    return fn(x)


def call_positional(x):
    return np.sum(call(smooth, x) ** 2)


def call_ufunc(x):
    return np.sum(call(np.tanh, x) * x)


def call_keyword_constant(x):
    fn = smooth
    return np.sum(fn(x, scale=1.5) * x)


def call_keyword_varying(x):
    fn = weighted
    return np.sum(fn(x, b=x * x))


def bound_method(x):
    return MODEL.energy(x) * np.sum(x)


def method_of_value(x):
    y = x.reshape(2, 3)
    return np.sum(np.sin(y) * y.sum(axis=0))




def call_partial(x):
    fn = functools.partial(two, np.full(6, 0.5))
    return np.sum(fn(x))


def two(a, b):
    return np.tanh(a) * b


class Layer:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        return np.sin(self.w * x)


LAYER = Layer(np.linspace(-1.0, 1.0, 6))


def call_object(x):
    return np.sum(call(LAYER, x) * x)


def method_as_value(x):
    y = x * 1.0
    total = y.sum
    return total() ** 2


def three(a, b, c):
    return np.tanh(a) * b + c * a


def call_starred(x):
    fn = three
    rest = (np.cos(x),)
    return np.sum(fn(x, *rest, 2.0))


def call_starred_rows(x):
    fn = two
    return np.sum(fn(*np.stack([x, x * x])))


PROGRAMS = [call_positional, call_ufunc, call_keyword_constant, call_keyword_varying,
            bound_method, method_of_value, call_partial, call_object, method_as_value,
            call_starred, call_starred_rows]


def loop_over_array(x):
    s = 0.0
    for xi in x:
        s = s + np.sin(xi) * xi
    return s


def loop_over_list(x):
    s = 0.0
    for xi in [x, x * 2.0]:
        s = s + np.sum(np.sin(xi) * xi)
    return s


def loop_over_zip(x):
    s = 0.0
    for a, b in zip(x, x[::-1]):
        s = s + a * np.cos(b)
    return s


def loop_over_dict(x):
    d = {"a": x, "b": x * x}
    s = 0.0
    for k in d:
        s = s + np.sum(np.sin(d[k]))
    return s


class Pair(NamedTuple):
    a: np.ndarray
    b: np.ndarray


@dataclasses.dataclass
class Scaled:
    a: np.ndarray
    s: float

    def energy(self):
        return np.sum(np.sin(self.a) * self.s)

    @property
    def norm2(self):
        return np.sum(np.cos(self.a) * self.a ** 2)


def namedtuple_fields(x):
    p = Pair(x * x, np.sin(x))
    return np.sum(p.a * p.b)


def dataclass_fields(x):
    d = Scaled(np.cos(x) * x, 2.0)
    return np.sum(d.a ** 3)


def dataclass_method(x):
    d = Scaled(x * x, 1.5)
    return d.energy() * np.sum(x)


def dataclass_property(x):
    d = Scaled(x * 1.5, 1.0)
    return d.norm2 * np.sum(x)


class Weights(NamedTuple):
    a: np.ndarray

    def energy(self, y):
        return np.sum(np.cos(self.a) * y)


def method_of_varying_object(x):
    p = Weights(x * x)
    energy = p.energy   # a bound method whose object carries a derivative
    return energy(x) * 2.0


# (Reverse over reverse of these is not what their rows decide: the forward compositions.)
STRUCTURE_PROGRAMS = [loop_over_array, loop_over_list, loop_over_zip, loop_over_dict,
                      namedtuple_fields, dataclass_fields, dataclass_method,
                      method_of_varying_object]
