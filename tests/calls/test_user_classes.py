"""Classes of the user's own: methods (``super().__init__`` included) of an instance
whose attributes are constants differentiate in both modes; constructing one from a
value being differentiated is refused at the call's line (its attributes would carry no
derivative), never a zero."""

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.helpers import check_both_modes

X = np.array([0.3, -1.2, 0.7])


class Scaled:
    def __init__(self, scale):
        self.scale = scale

    def times(self, v):
        return self.scale * v


class Linear(Scaled):
    def __init__(self, w):
        super().__init__(2.0)
        self.w = w

    def apply(self, v):
        return self.times(np.tanh(self.w * v))


def uses_an_instance_built_from_constants(x):
    layer = Linear(np.array([0.5, -1.0, 2.0]))
    return np.sum(layer.apply(x) * x)


def builds_an_instance_from_x(x):
    layer = Linear(x * 2.0)   # refused
    return np.sum(layer.apply(x))


def test_methods_and_super_init_of_an_instance_of_constants():
    check_both_modes(uses_an_instance_built_from_constants, [X.copy()])


@pytest.mark.parametrize("run", [lambda f: sg.grad(f)(X.copy()),
                                 lambda f: sg.jvp(f)(X.copy(), np.ones(3))],
                         ids=["reverse", "forward"])
def test_constructing_a_user_class_from_a_differentiated_value_is_refused_at_its_line(run):
    line = builds_an_instance_from_x.__code__.co_firstlineno + 1
    with pytest.raises(sg.TransformError, match="constructing `Linear`, a class of your "
                                                 f"own(.|\n)*line {line}, in builds_an_"):
        run(builds_an_instance_from_x)
