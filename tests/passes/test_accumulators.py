"""A cotangent summed in a loop is accumulated in place only when no other name can see
its array (``optimize.accumulators``, ``runtime.accumulation``): same gradients."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.optimize.accumulators import accumulate_in_place
from srcgrad.runtime import add_cotangents, add_into
from tests.conftest import numeric_grad
from tests.passes.helpers import expect, show, statements


def recurrence(W, b, xs):
    h = np.zeros(W.shape[0])
    total = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + xs[t] * b)
        total = total + np.sum(h ** 2)
    return total


RNG = np.random.default_rng(5)


def _inputs(dtype=np.float64):
    W = (RNG.standard_normal((3, 3)) / 2).astype(dtype)
    b = RNG.standard_normal(3).astype(dtype)
    xs = RNG.standard_normal((4, 3))
    return W, b, xs


def test_loop_sums_go_in_place_and_the_gradient_is_exact():
    source = sg.source(sg.grad(recurrence, (0, 1)))
    assert "dW = _sg.add_into(dW, " in source and "db = _sg.add_into(db, " in source
    args = _inputs()
    dW, db = sg.grad(recurrence, (0, 1))(*args)
    np.testing.assert_allclose(dW, numeric_grad(recurrence, args, 0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(db, numeric_grad(recurrence, args, 1), rtol=1e-6, atol=1e-8)


def test_float32_weights_with_float64_contributions():
    # dW starts as float32 zeros; the contributions are float64 (xs is float64): the
    # first sum is a new float64 array, as add_cotangents gives, then summed in place
    args = _inputs(np.float32)
    dW, db = sg.grad(recurrence, (0, 1))(*args)
    assert dW.dtype == np.float32 and db.dtype == np.float32
    wide = [a.astype(float) for a in args[:2]] + [args[2]]
    np.testing.assert_allclose(db, numeric_grad(recurrence, wide, 1), rtol=2e-4, atol=1e-5)


def test_repeated_gradients_start_from_zero():
    # the array summed into is made afresh by each call, never kept from the last one
    args = _inputs()
    grad = sg.grad(recurrence, (0, 1))
    first = [g.copy() for g in grad(*args)]
    second = grad(*args)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_vjp_backward_run_twice_gives_fresh_arrays():
    args = _inputs()
    _, backward = sg.vjp(recurrence, (0, 1))(*args)
    once = backward(1.0)
    twice = backward(1.0)
    assert once[0] is not twice[0]
    np.testing.assert_array_equal(once[0], twice[0])


def test_hessian_vector_product_over_the_in_place_sums():
    args = _inputs()
    v = RNG.standard_normal((3, 3))
    got = sg.hvp(recurrence)(*args, v)
    eps = 1e-6
    g = sg.grad(recurrence)
    plus = g(args[0] + eps * v, *args[1:])
    minus = g(args[0] - eps * v, *args[1:])
    np.testing.assert_allclose(got, (plus - minus) / (2 * eps), rtol=1e-5, atol=1e-7)


def _rewritten(source, forward="", outside=()):
    return show(accumulate_in_place(statements(forward), statements(source), set(outside)))


LOOP = """
    dW = _sg.zeros_like(W)
    for t in reversed(range(n)):
        dW = _sg.add_cotangents(dW, _sg.matmul_adjoint_b(g, h, W))
"""


def test_the_pass_rewrites_an_unshared_accumulator():
    assert _rewritten(LOOP) == expect("""
        dW = _sg.zeros_like(W)
        for t in reversed(range(n)):
            dW = _sg.add_into(dW, _sg.matmul_adjoint_b(g, h, W))
        """)


@pytest.mark.parametrize("extra", [
    "    d_other = dW\n",                           # another name holds the array
    "    d_x = _sg.unbroadcast(dW, x)\n",           # read by something else (may return it)
    "    dW = d_y\n",                               # bound to an array it did not make
    "    dW = _sg.add_cotangents(dW, dW)\n",        # the addend is the array itself
])
def test_the_pass_leaves_a_shared_or_foreign_array_alone(extra):
    source = LOOP + extra
    assert "add_into" not in _rewritten(source)


def test_the_pass_leaves_names_of_the_forward_sweep_and_parameters_alone():
    assert "add_into" not in _rewritten(LOOP, forward="dW = W * 2\n")
    assert "add_into" not in _rewritten(LOOP, outside={"dW"})


def test_add_into_writes_only_what_it_owns():
    total = np.zeros(3)
    g = np.ones(3)
    assert add_into(total, g) is total and total.tolist() == [1.0, 1.0, 1.0]
    # a zero not built: the sum is g itself, copied so that later sums cannot write into g
    got = add_into(None, g)
    assert got is not g and np.array_equal(got, g)
    # dtype, shape or container differences: a new value, exactly add_cotangents'
    narrow = np.zeros(3, dtype=np.float32)
    wide = add_into(narrow, g)
    assert wide.dtype == np.float64 and not narrow.any()
    row = np.zeros((1, 3))
    np.testing.assert_array_equal(add_into(row, np.ones((2, 3))), np.ones((2, 3)))
    assert not row.any()
    assert add_into([np.zeros(2), None], [np.ones(2), np.ones(1)])[1].tolist() == [1.0]
    readonly = np.zeros(3)
    readonly.flags.writeable = False
    assert add_into(readonly, g) is not readonly and not readonly.any()
    assert add_into(1.5, 2.0) == add_cotangents(1.5, 2.0)
