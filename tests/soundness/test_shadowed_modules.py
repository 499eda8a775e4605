"""Generated code binds ``np`` and ``math`` to the modules themselves, so a function whose
global ``np`` (or ``math``) is something else is refused at its line: the guard on the
name could never hold, and regenerating on each call recursed until RecursionError."""

import numpy
import pytest

import srcgrad as sg
from tests.soundness import shadowed_np_module as module

X = numpy.array([0.3, 0.7, 1.1])


@pytest.mark.parametrize("f, name", [(module.reads_np, "np"), (module.reads_math, "math")])
def test_a_global_np_that_is_not_numpy_is_refused_at_its_line(f, name):
    with pytest.raises(sg.TransformError, match=f"global `{name}` is a NotNumPy") as error:
        sg.grad(f)(X)
    assert "shadowed_np_module.py" in str(error.value)
    with pytest.raises(sg.TransformError, match=f"global `{name}`"):
        sg.jvp(f)(X, numpy.ones(3))
