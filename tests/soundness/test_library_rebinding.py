"""A NumPy or ``math`` name rebound after a derivative was generated (``np.tanh =
np.sin``): the derivative made before raises, naming the name, instead of pairing the
new function's value with the old one's rule, and so does making one while it stays
rebound; restored, derivatives are right again (central finite differences)."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import TransformError
from tests.conftest import numeric_grad

X = np.array([0.3, -0.8, 1.2])


def uses_tanh(x):
    return np.sum(np.tanh(x) * x)


def uses_norm(x):
    return np.linalg.norm(x * 2.0) + np.sum(np.exp(x))


def uses_math(x):
    return math.exp(x) * math.sin(x)


CASES = [   # function, module, name, replacement, point
    (uses_tanh, np, "tanh", np.sin, X),
    (uses_norm, np.linalg, "norm", lambda v: np.sum(v * v), X),
    (uses_norm, np, "exp", np.sinh, X),
    (uses_math, math, "sin", math.cos, 0.7),
]


def fd(f, x):
    if np.ndim(x) == 0:
        return (f(x + 1e-6) - f(x - 1e-6)) / 2e-6
    return numeric_grad(lambda v: f(v.copy()), [np.array(x, dtype=float)], 0)


@pytest.mark.parametrize("f, module, name, new, x", CASES,
                         ids=[f"{c[1].__name__}.{c[2]}" for c in CASES])
def test_a_rebound_library_name_is_never_differentiated_with_the_old_rule(
        f, module, name, new, x, monkeypatch):
    grad, jvp = sg.grad(f), sg.jvp(f)
    assert np.allclose(grad(x), fd(f, x), atol=1e-5)
    jvp(x, np.ones_like(x))
    monkeypatch.setattr(module, name, new)
    for made_before in (lambda: grad(x), lambda: jvp(x, np.ones_like(x))):
        with pytest.raises(TransformError, match=rf"{module.__name__}\.{name} was rebound"):
            made_before()
    try:   # made now: refused while the name is rebound, or right
        made_now = sg.grad(f)(x)
    except TransformError as error:
        assert f"{module.__name__}.{name} was rebound" in str(error)
    else:   # (a replacement srcgrad can read, such as a lambda, is differentiated)
        assert np.allclose(made_now, fd(f, x), atol=1e-5)
    monkeypatch.undo()
    for _ in range(2):   # restored: made before or now, right again
        assert np.allclose(grad(x), fd(f, x), atol=1e-5)
        assert np.allclose(jvp(x, np.ones_like(x))[1], np.sum(fd(f, x)), atol=1e-5)
        assert np.allclose(sg.grad(f)(x), fd(f, x), atol=1e-5)
        _, tangent = sg.jvp(f)(x, np.ones_like(x))
        assert np.allclose(tangent, np.sum(fd(f, x)), atol=1e-5)


S = sg.Variable(np.array([0.5, -1.0, 2.0]))


def reads_a_variable(x):
    return np.sum(np.tanh(S * x))


def test_the_implicit_fast_variant_is_stopped_too(monkeypatch):
    g = sg.implicit_value_and_gradients(reads_a_variable)
    g(X)
    monkeypatch.setattr(np, "tanh", np.sin)
    with pytest.raises(TransformError, match=r"numpy\.tanh was rebound"):
        g(X)
    monkeypatch.undo()
    expected = (1 - np.tanh(S._value * X) ** 2) * X
    assert np.allclose(g(X)[1][0][0], expected)   # the one made before: right again
    (grad, variable), = sg.implicit_value_and_gradients(reads_a_variable)(X)[1]
    assert variable is S and np.allclose(grad, (1 - np.tanh(S._value * X) ** 2) * X)


REBOUND_BEFORE_THE_RULES_LOAD = """
import sys
import numpy as np
import srcgrad as sg
from srcgrad.errors import TransformError

def uses(x):
    return np.sum(np.tanh(x) * np.sin(x))

x = np.array([0.3, -0.8, 1.2])
name, replacement = sys.argv[1], sys.argv[2]
original = getattr(np, name)
setattr(np, name, eval(replacement))   # before srcgrad's first derivative
try:
    sg.grad(uses)(x)
except TransformError as error:
    assert f"numpy.{name}" in str(error), error
else:
    raise AssertionError("a derivative made with a rebound name in the rule table")
setattr(np, name, original)
for _ in range(2):
    print(*sg.grad(uses)(x))
"""


@pytest.mark.parametrize("name, replacement", [
    ("tanh", "np.sin"), ("sin", "np.tanh"), ("tanh", "np.cos"),
    ("tanh", "lambda v: np.sinh(v)")])
def test_a_name_rebound_before_srcgrad_loads_its_rules(tmp_path, name, replacement):
    """srcgrad's rows name library functions (``np.tanh``) and are read on the first
    derivative: a name rebound before then is refused, naming it, never tanh's rule
    keyed on sin (which gave sin's value with tanh's derivative, then no rule for tanh
    once restored); restored, derivatives are right (a fresh process each)."""
    script = tmp_path / "rebound_first.py"
    script.write_text(REBOUND_BEFORE_THE_RULES_LOAD)
    done = subprocess.run([sys.executable, str(script), name, replacement],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SRCGRAD_CACHE": "0"})
    assert done.returncode == 0, done.stderr
    x = np.array([0.3, -0.8, 1.2])
    expected = (1 - np.tanh(x) ** 2) * np.sin(x) + np.tanh(x) * np.cos(x)
    lines = done.stdout.strip().split("\n")
    assert len(lines) == 2
    for line in lines:
        np.testing.assert_allclose([float(v) for v in line.split()], expected, rtol=1e-12)


def test_a_derivative_made_before_waits_for_every_rebound_name(monkeypatch):
    """Two names it reads rebound, one restored: still an error (naming the other);
    both restored: right."""
    grad = sg.grad(uses_tanh)
    expected = fd(uses_tanh, X)
    assert np.allclose(grad(X), expected, atol=1e-5)
    monkeypatch.setattr(np, "tanh", np.sin)
    monkeypatch.setattr(np, "sum", lambda v: np.add.reduce(v) * 2.0)
    with pytest.raises(TransformError, match="was rebound"):
        grad(X)
    monkeypatch.setattr(np, "tanh", TANH)
    with pytest.raises(TransformError, match=r"numpy\.sum was rebound"):
        grad(X)
    monkeypatch.undo()
    for _ in range(2):
        assert np.allclose(grad(X), expected, atol=1e-5)


TANH = np.tanh
