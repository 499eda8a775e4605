"""Programs that pass keywords carrying derivatives as Python is written: a dict spread
into a call's keywords (``f(x, **kw)``, the dict built in the function, passed in, or one
of a list), a callee that gathers them in its ``**kwargs``, named keywords and spreads
mixed, defaults left in place, methods calling methods, dataclasses. Each is
``x -> float`` for the order checks (``tests/higher/test_keyword_orders.py``)."""

import dataclasses

import numpy as np


def weighted(x, b=1.0):
    return np.tanh(x) * b


def packed(x, **options):
    return np.sin(x) * options["b"]


def mixed(x, b, c=0.5, n=1):
    return np.cos(x * b) * c ** n


def combine(*xs, scale=1.0, **kw):
    total = 0.0
    for x in xs:
        total = total + np.sin(x)
    return total * scale + kw.get("shift", 0.0)


def spread_built_here(x):
    fn = weighted
    options = {"b": np.exp(x)}
    return np.sum(fn(x, **options) * x)


def packed_by_name(x):
    fn = packed
    return np.sum(fn(x, b=np.cos(x)))


def spread_into_packed(x):
    return np.sum(combine(x, **{"scale": 2.0, "shift": np.sin(x) * x}))


def spread_and_named(x):
    fn = mixed
    return np.sum(fn(x, b=np.cos(x), **{"c": x * x + 1.0}))


def spread_constant_entry(x):
    extra = {"c": np.exp(0.5 * x), "n": 2}
    return np.sum(mixed(x, x, **extra))


def spread_leaves_defaults(x):
    fn = mixed
    return np.sum(fn(x, **{"b": np.sin(x)}) * x)


def two_spreads(x):
    first, second = {"b": x * x}, {"c": np.cos(x)}
    return np.sum(mixed(x, **first, **second))


def spreads(x, kw):
    fn = mixed
    return fn(x, **kw)


def spread_passed_in(x):
    return np.sum(spreads(x, {"b": np.tanh(x), "c": 1.5}) ** 2)


def spread_from_a_list(x):
    total = 0.0
    for options in [{"b": x}, {"b": x * x, "c": 2.0}]:
        total = total + np.sum(mixed(x, **options))
    return total


@dataclasses.dataclass
class Model:
    w: np.ndarray
    scale: float = 1.0

    def energy(self, x, **kw):
        return self.term(x, **kw) * self.scale

    def term(self, x, b=1.0, c=0.5):
        return np.sum(np.sin(self.w * x) * b + c * x ** 2)


def method_spreads_to_method(x):
    model = Model(x * 0.5, 2.0)
    return model.energy(x, **{"b": np.cos(x), "c": 0.25})


def method_gets_packed(x):
    model = Model(np.linspace(-1.0, 1.0, 6))
    options = {"c": x * x}
    return model.energy(x, b=np.exp(0.3 * x), **options)


PROGRAMS = [spread_built_here, packed_by_name, spread_into_packed, spread_and_named,
            spread_constant_entry, spread_leaves_defaults, two_spreads, spread_passed_in,
            spread_from_a_list, method_spreads_to_method, method_gets_packed]
