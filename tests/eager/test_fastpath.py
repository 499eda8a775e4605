"""The tape's hot path (``eager.fastpath``, in C when built): its edges give the answers
of the general code, and the whole eager suite passes on its pure-Python twin too."""

import gc
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import weakref
from pathlib import Path

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.eager import fastpath

PURE = bool(os.environ.get("SRCGRAD_PURE_PYTHON"))
w = sg.Variable(np.array([0.5, -1.0, 2.0]))
c = sg.Variable(0.25)
X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])


@sg.differentiable
def loss(x):
    return np.sum(np.tanh(x @ w + c) ** 2)


@sg.differentiable
def checked(x):
    if np.any(x < 0):
        raise ValueError("negative input")
    return np.sum(x @ w)


@sg.differentiable
def as_float(x):
    return float(np.sum(x @ w)) * 1.0


def closed_form(x):
    """(d/dw, d/dc) of ``sum(tanh(x @ w + c) ** 2)``, derived by hand (the oracle)."""
    t = np.tanh(x @ w.numpy() + c.numpy())
    dz = 2 * t * (1 - t ** 2)
    return x.T @ dz, np.sum(dz)


def _c_compiler():
    """The compiler ``pip install`` would build ``_fast.c`` with, if it is on PATH."""
    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    return shutil.which(command[0]) if command else None


@pytest.mark.skipif(PURE, reason="SRCGRAD_PURE_PYTHON=1 asks for the Python hot path")
def test_the_c_hot_path_is_built():
    if not fastpath.COMPILED and _c_compiler() is None:
        pytest.skip("srcgrad/eager/_fast.c is not built and there is no C compiler here: "
                    "srcgrad runs its Python hot path (eager/fastpath.py)")
    assert fastpath.COMPILED, "srcgrad/eager/_fast.c was not built (pip install -e . builds it)"
    assert type(sg.GradientTape.__mro__[1].__init__).__name__ == "wrapper_descriptor"


@pytest.mark.skipif(PURE, reason="this run is the pure-Python one")
def test_the_eager_suite_passes_on_the_pure_python_hot_path():
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/eager"],
        cwd=root, env=dict(os.environ, SRCGRAD_PURE_PYTHON="1"), capture_output=True,
        text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "[100%]" in done.stdout


@pytest.mark.skipif(not PURE, reason="only in the pure-Python run")
def test_the_switch_selects_the_python_hot_path():
    assert not fastpath.COMPILED
    assert sg.GradientTape.__mro__[1] is fastpath.TapeBase
    assert fastpath.TapeBase.__module__ == "srcgrad.eager.fastpath"


def test_usual_step_and_every_way_of_calling_gradient_agree():
    dw, dc = closed_form(X)
    for call in (lambda t, v: t.gradient(v, [w, c]),
                 lambda t, v: t.gradient(target=v, sources=[w, c]),
                 lambda t, v: t.gradient(v, [w, c], None),
                 lambda t, v: t.gradient(v, [w, c], unconnected_gradients="zero"),
                 lambda t, v: t.gradient(v, [w, c], output_gradients=1.0)):
        with sg.GradientTape() as tape:
            value = loss(X)
        gw, gc_ = call(tape, value)
        np.testing.assert_allclose(gw, dw)
        np.testing.assert_allclose(gc_, dc)


def test_gradient_with_too_many_arguments_is_a_type_error():
    with sg.GradientTape() as tape:
        value = loss(X)
    with pytest.raises(TypeError):
        tape.gradient(value, [w], None, "none", "extra")


def test_an_error_in_the_call_propagates_and_leaves_the_tape_empty():
    with pytest.raises(ValueError, match="negative input"):
        with sg.GradientTape() as tape:
            checked(-X)
    assert not tape._recording and tape._pending is None
    assert fastpath.RECORDING == {}
    with sg.GradientTape() as again:   # the tape machinery is unharmed
        value = loss(X)
    np.testing.assert_allclose(again.gradient(value, [w, c])[0], closed_form(X)[0])


def test_a_non_array_result_is_recorded_as_a_node():
    with sg.GradientTape() as tape:
        value = as_float(X)
    assert tape._pending is None and len(tape._nodes) == 1
    (gw,) = tape.gradient(value, [w])
    np.testing.assert_allclose(gw, X.sum(axis=0))


def test_a_tape_can_be_weakly_referenced_and_is_freed():
    with sg.GradientTape() as tape:
        value = loss(X)
    tape.gradient(value, [w, c])
    ref = weakref.ref(tape)
    del tape
    gc.collect()
    assert ref() is None


def test_gradient_inside_an_outer_tape_runs_on_tensors():
    x = sg.Variable(3.0)
    with sg.GradientTape() as outer:
        with sg.GradientTape() as inner:
            y = x * x * x
        dy = inner.gradient(y, x)
    assert float(dy) == pytest.approx(27.0)
    assert float(outer.gradient(dy, x)) == pytest.approx(18.0)


def test_assign_keeps_the_shape_and_dtype_of_a_variable():
    v = sg.Variable(0.0)
    v.assign(2)
    assert type(v.numpy()) is np.float64 and v.numpy() == 2.0
    counts = sg.Variable(np.array([1, 2]))
    with pytest.raises(TypeError, match="dtype float64 to variable .* of dtype int64"):
        counts.assign(np.array([0.5, 1.5]))
    with pytest.raises(ValueError, match="shape"):
        counts.assign(np.array([1, 2, 3]))
    np.testing.assert_array_equal(counts.numpy(), [1, 2])


w32 = sg.Variable(np.array([1.0, -2.0], dtype=np.float32))
scale = sg.Variable(3.0)


def mixed(x):
    return np.sum(x * w32) * scale


def reads_a_missing_attribute(x):
    return np.sum(x * w32.not_there)


class Model:
    def __init__(self):
        self.w = sg.Variable(np.array([0.5, 2.0]))

    def loss(self, x):
        return np.sum(np.tanh(x * self.w) ** 2)


def test_implicit_usual_and_finished_gradients_keep_each_variables_dtype():
    x = np.array([0.5, 4.0])
    f = sg.implicit_value_and_gradients(mixed)
    for _ in range(3):   # the first call compiles; later ones take the usual path
        value, ((g32, v1), (gscale, v2)) = f(x)
        assert v1 is w32 and v2 is scale
        assert g32.dtype == np.float32 and type(gscale) is np.float64
        np.testing.assert_allclose(g32, x * 3.0, rtol=1e-6)
        assert gscale == pytest.approx(float(np.sum(x * w32.numpy())))


def test_implicit_on_a_bound_method_and_an_attribute_error_from_the_function():
    model = Model()
    x = np.array([1.0, -1.0])
    for _ in range(2):
        ((g, v),) = sg.implicit_gradients(model.loss)(x)
        t = np.tanh(x * model.w.numpy())
        assert v is model.w
        np.testing.assert_allclose(g, 2 * t * (1 - t ** 2) * x)
    f = sg.implicit_gradients(reads_a_missing_attribute)
    for _ in range(2):
        with pytest.raises(AttributeError, match="not_there"):
            f(x)


def test_the_usual_step_runs_the_generated_backward_once_and_no_sweep(monkeypatch):
    def sweep(*args):
        raise AssertionError("the general sweep ran")
    monkeypatch.setattr(sg.GradientTape, "_sweep", sweep)
    with sg.GradientTape() as tape:
        value = loss(X)
    pending = tape._pending   # the call, left pending: no node
    assert not tape._nodes and "def loss_backward" in pending.backward.source
    generated, calls = pending.backward, []

    def spy(saved, g):
        calls.append(g)
        return generated(saved, g)

    pending.backward = spy
    gw, gc_ = tape.gradient(value, [w, c])
    assert calls == [1.0]
    dw, dc = closed_form(X)
    np.testing.assert_allclose(gw, dw)
    np.testing.assert_allclose(gc_, dc)
    assert pending.saved is None   # released: a non-persistent tape answers once
