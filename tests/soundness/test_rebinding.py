"""Rebinding what a differentiated function reads, and the cache's lifetime: the
gradient follows the names (guards, see srcgrad.compiler.guards) and a dropped function frees
its units. Oracles: closed forms and central finite differences."""

import gc
import weakref

import numpy as np

import srcgrad as sg
from srcgrad.compiler import unit_cache
from tests.conftest import numeric_grad

X = np.array([0.3, 0.7, 1.1])
act = np.tanh


def reads_a_global(x):
    return np.sum(act(x))


def test_rebinding_a_global_function_is_seen_in_every_mode():
    global act
    act = np.tanh
    grad, jvp = sg.grad(reads_a_global), sg.jvp(reads_a_global)
    np.testing.assert_allclose(grad(X), 1 - np.tanh(X) ** 2)
    act = np.sin
    try:
        np.testing.assert_allclose(grad(X), np.cos(X))
        np.testing.assert_allclose(jvp(X, np.ones(3))[1], np.sum(np.cos(X)))
        value, backward = sg.vjp(reads_a_global)(X)
        act = np.tanh   # the backward of a forward that ran with np.sin
        np.testing.assert_allclose(backward(1.0), np.cos(X))
    finally:
        act = np.tanh


def square(v):
    return v * v


def calls_square(x):
    return np.sum(square(x))


def test_redefining_an_inlined_helper_is_seen():
    global square
    grad = sg.grad(calls_square)
    original = square
    np.testing.assert_allclose(grad(X), 2 * X)

    def square(v):   # noqa: F811 - the rebinding under test
        return v * v * v

    globals()["square"] = square
    try:
        np.testing.assert_allclose(grad(X), numeric_grad(calls_square, [X], 0), rtol=1e-6)
    finally:
        globals()["square"] = original


def test_a_dropped_lambda_frees_the_array_it_closes_over():
    refs = []
    for i in range(20):
        big = np.full(1_000_000, float(i))   # 8 MB
        refs.append(weakref.ref(big))
        np.testing.assert_allclose(sg.grad(lambda v, big=None: np.sum(v * v))(X), 2 * X)
        f = (lambda b: (lambda v: np.sum(v * b[:3])))(big)
        np.testing.assert_allclose(sg.grad(f)(X), big[:3])
        del big, f
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_units_live_on_their_function():
    f = lambda v: np.sum(np.sin(v))   # noqa: E731
    sg.grad(f)(X)
    assert unit_cache.cached_wrts(f) == {"v"}
    probe = weakref.ref(f)
    del f
    gc.collect()
    assert probe() is None
