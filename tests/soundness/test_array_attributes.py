"""``x.T``, ``x.real``, ``x.shape``, ``x.size``, ... are read as an array's attributes (a
transpose, a linear part, constants) only where ``x`` is proven an array; on anything
else they are checked when the code runs. A NamedTuple's or dataclass's field named
``T`` or ``size`` gave a transpose of the whole object or a silent zero; now refused by
name, in reverse and forward mode. Arrays keep their derivatives (finite differences)."""

import dataclasses
from typing import NamedTuple

import numpy as np
import pytest

import srcgrad as sg
from tests.soundness.oracle_modes import check_modes


class Settings(NamedTuple):
    T: float
    size: float


@dataclasses.dataclass
class Box:
    shape: float
    real: float


def reads_fields_named_like_array_attributes(p, x):
    return p.T * np.sum(x) + p.size * 2.0


def reads_dataclass_fields(b, x):
    return b.shape * np.sum(x * b.real)


X = np.array([0.3, 0.7, 1.1])


@pytest.mark.parametrize("f, obj", [
    (reads_fields_named_like_array_attributes, Settings(1.5, 2.5)),
    (reads_dataclass_fields, Box(1.5, 0.5)),
], ids=["namedtuple", "dataclass"])
def test_fields_named_like_array_attributes_are_refused(f, obj):
    with pytest.raises(sg.TransformError, match="array's attribute"):
        sg.grad(f)(obj, X)
    tangent = type(obj)(*[1.0] * len(dataclasses.astuple(obj))) \
        if dataclasses.is_dataclass(obj) else obj._replace(T=1.0, size=0.0)
    with pytest.raises(sg.TransformError, match="array's attribute"):
        sg.jvp(lambda o: f(o, X))(obj, tangent)


def attributes_of_a_parameter_array(x):
    m = np.outer(x, x) if x.ndim == 1 else x
    return np.sum(m.T * np.arange(9.0).reshape(3, 3)) + x.real[0] * x.size


def attributes_of_a_computed_array(x):
    y = np.sin(x)
    t = y.T
    return np.sum(t * y.real) * y.shape[0]


@pytest.mark.parametrize("f", [attributes_of_a_parameter_array,
                               attributes_of_a_computed_array], ids=lambda f: f.__name__)
def test_array_attributes_keep_their_derivatives(f):
    assert np.any(check_modes(f) != 0.0)
