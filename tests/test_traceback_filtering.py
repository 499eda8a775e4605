"""srcgrad's own frames are left out of the tracebacks of its errors raised by the
public entry points (as JAX filters its own): the user's frames stay, and the error
still names the user's line. ``SRCGRAD_TRACEBACK_FILTERING=off`` keeps every frame."""

import os
import pathlib
import traceback

import numpy as np
import pytest

import srcgrad as sg

PACKAGE = str(pathlib.Path(sg.__file__).resolve().parent) + os.sep


def refused(x):
    async def later():
        pass
    return np.sum(x)


X = np.array([0.1, 0.2])
V = sg.Variable(np.array([0.1, 0.2]))


def refused_reading_variable():
    async def later():
        pass
    return np.sum(V * 2.0)


ENTRY_POINTS = {
    "grad": lambda: sg.grad(refused),
    "value_and_grad": lambda: sg.value_and_grad(refused),
    "vjp": lambda: sg.vjp(refused)(X),
    "jvp": lambda: sg.jvp(refused),
    "hvp": lambda: sg.hvp(refused),
    "hessp": lambda: sg.hessp(refused),
    "hessian": lambda: sg.hessian(refused),
    "jacobian": lambda: sg.jacobian(refused)(X),
    "jacrev": lambda: sg.jacrev(refused)(X),
    "jacfwd": lambda: sg.jacfwd(refused)(X),
    "elementwise_grad": lambda: sg.elementwise_grad(refused)(X),
    "gradients_function": lambda: sg.gradients_function(refused)(X),
    "implicit_gradients": lambda: sg.implicit_gradients(refused_reading_variable)(),
    "differentiable": lambda: sg.differentiable(refused),
}


def frames(error):
    return [entry.filename for entry in traceback.extract_tb(error.__traceback__)]


@pytest.mark.parametrize("api", sorted(ENTRY_POINTS))
def test_no_srcgrad_frames(api, monkeypatch):
    monkeypatch.delenv("SRCGRAD_TRACEBACK_FILTERING", raising=False)
    with pytest.raises(sg.TransformError, match="async def") as caught:
        ENTRY_POINTS[api]()
    files = frames(caught.value)
    assert not [f for f in files if f.startswith(PACKAGE)], files
    assert __file__ in files                 # the user's call is there
    assert f'File "{__file__}"' in str(caught.value)   # and the line it names


def test_the_environment_variable_keeps_every_frame(monkeypatch):
    monkeypatch.setenv("SRCGRAD_TRACEBACK_FILTERING", "off")
    with pytest.raises(sg.TransformError) as caught:
        sg.grad(refused)
    internal = [f for f in frames(caught.value) if f.startswith(PACKAGE)]
    assert len(internal) >= 3, internal


def test_other_errors_keep_their_frames():
    """A user's own exception raised inside a derivative is not srcgrad's to filter."""
    def raises(x):
        raise KeyError("the user's")
    with pytest.raises(KeyError) as caught:
        sg.grad(raises)(1.0)
    names = [entry.name for entry in traceback.extract_tb(caught.tb)]
    assert any(name.startswith("raises") for name in names), names
