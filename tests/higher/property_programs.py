"""Programs reading a property (a ``@property`` getter) of a dataclass, a NamedTuple and
a plain class, alone and with the constructs around it: a property calling a method, a
method reading a property, a property reading a property, a property of an object held
in a list or a dict, a keyword default. Each is ``x -> float`` for the order checks
(``tests/higher/test_property_orders.py``)."""

import dataclasses
from typing import NamedTuple

import numpy as np


@dataclasses.dataclass
class Box:
    a: np.ndarray
    s: float = 1.5

    @property
    def energy(self):
        return np.sum(np.cos(self.a) * self.a ** 2) * self.s

    @property
    def doubled(self):
        return self.scaled(2.0)

    def scaled(self, c):
        return np.sin(self.a) * c

    @property
    def nested(self):
        return self.energy * np.sum(self.a)

    def uses_property(self, b=0.5):
        return self.energy + b * np.sum(self.a ** 3)


class Pair(NamedTuple):
    a: np.ndarray
    b: np.ndarray

    @property
    def inner(self):
        return np.sum(self.a * np.tanh(self.b))


class Plain:
    def __init__(self, w):
        self.w = w

    @property
    def norm(self):
        return np.sum(np.exp(0.3 * self.w) * self.w)


def dataclass_property(x):
    return Box(x * 1.5).energy * np.sum(x)


def property_calls_method(x):
    return np.sum(Box(x).doubled * x)


def property_reads_property(x):
    return Box(np.sin(x), 0.5).nested


def method_reads_property(x):
    return Box(x * x).uses_property(b=np.sum(x))


def namedtuple_property(x):
    return Pair(x, np.cos(x)).inner


def plain_class_property(x):
    return Plain(x * 0.5).norm ** 2


def property_in_a_list(x):
    boxes = [Box(x), Box(x * x, 0.25)]
    total = 0.0
    for box in boxes:
        total = total + box.energy
    return total


def property_in_a_dict(x):
    parts = {"p": Pair(np.sin(x), x), "q": Pair(x, x * x)}
    return parts["p"].inner * parts["q"].inner


PROGRAMS = [dataclass_property, property_calls_method, property_reads_property,
            method_reads_property, namedtuple_property, plain_class_property,
            property_in_a_list, property_in_a_dict]
