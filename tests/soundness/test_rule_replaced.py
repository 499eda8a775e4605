"""A rule registered or replaced after a derivative was generated is the one used next:
the code generated with the old row is made again (``Registry.generation``), in every
mode, for the function itself, a caller that inlines it, and a closure sharing its code.

Before: ``sg.defelementwise(scaled, "np.cos(x)")``, a gradient, then the same function
registered with ``"2 * np.cos(x)"``: the gradient kept the first row's numbers."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.rules import REGISTRY


def scaled(x):
    return np.sin(x)


def loss(x):
    return np.sum(scaled(x) * x)


def caller(x):
    return loss(x) + np.sum(x)


def closed_form(x, factor):   # d/dx [ s(x) * x ] with s' = factor * cos(x)
    return factor * np.cos(x) * x + np.sin(x)


@pytest.fixture
def restore_scaled(monkeypatch):
    """The table as it was before the test (no row for ``scaled`` left behind)."""
    monkeypatch.setattr(REGISTRY, "_rules", dict(REGISTRY._rules))
    monkeypatch.setattr(REGISTRY, "_by_name", dict(REGISTRY._by_name))
    yield
    monkeypatch.undo()
    REGISTRY.changed()


X = np.array([0.3, -1.2, 2.0])
DIRECTION = np.array([1.0, -0.5, 0.25])


@pytest.mark.parametrize("factor_then", [2.0, 0.5])
def test_every_api_follows_the_replaced_row(restore_scaled, factor_then):
    sg.defelementwise(scaled, "np.cos(x)")
    for factor in (1.0, factor_then, 1.0):
        sg.defelementwise(scaled, f"{factor} * np.cos(x)")
        expected = closed_form(X, factor)
        np.testing.assert_allclose(sg.grad(loss)(X), expected)
        np.testing.assert_allclose(sg.grad(caller)(X), expected + 1)
        np.testing.assert_allclose(sg.jvp(loss)(X, DIRECTION)[1], expected @ DIRECTION)
        value, backward = sg.vjp(loss)(X)
        np.testing.assert_allclose(backward(1.0), expected)
        # the gradient is s'(x) x + s(x) with s' = factor cos: its derivative under the
        # same row is factor (cos(x) - x sin(x)) + factor cos(x)
        hv = sg.hvp(loss)(X, DIRECTION)
        np.testing.assert_allclose(
            hv, factor * (2 * np.cos(X) - X * np.sin(X)) * DIRECTION)


def test_a_closure_of_shared_code_follows_the_replaced_row(restore_scaled):
    def make(k):
        return lambda x: np.sum(scaled(x) * k)

    for factor in (1.0, 3.0):
        sg.defelementwise(scaled, f"{factor} * np.cos(x)")
        for k in (1.0, 2.0):
            np.testing.assert_allclose(sg.grad(make(k))(X), factor * k * np.cos(X))
