"""A sum may write into an operand the forward sweep made and no longer needs
(``optimize.reuse``, ``runtime.reuse``), and a fused gradient frees a forward array
after the backward sweep's last read of it (``optimize.free_saved``): the same numbers,
checked against finite differences, in every dtype and shape the helpers meet."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.optimize.reuse import reuse_dead_operands
from srcgrad.runtime import difference_into, sum_into
from tests.conftest import numeric_grad
from tests.passes.helpers import expect, show, statements


def layer(x, W, b):
    h = np.tanh(x @ W + b)
    return np.sum(h * h)


def centered(x, m, q):
    z = q[:, None, :] * x[None, :, :] - x[None, :, :] @ np.transpose(m, (0, 2, 1))
    return np.sum(z ** 2)


def twice(x, W):
    a = x @ W
    c = a + 1.0
    return np.sum(c * a)     # a read again: its memory is not reused


RNG = np.random.default_rng(31)
BIG = (300, 120)   # 288 KB of float64: above NumPy's elision size


def test_the_pass_takes_only_dead_new_operands():
    forward = statements("""
        a = x @ W
        c = a + b
        a = _sg.shape_of(a)
        v = x @ W
        w = v
        e = v - b
        s = x[0]
        t = s + b
        q = x @ W
        u = -q
        f = 1.0 - u
        k = x * 2
        g = k * b
        n = d + 1
        r = n + 2
    """)
    backward = statements("""
        da = _sg.unbroadcast(dc, a)
        de = g * v
    """)
    assert show(reuse_dead_operands(forward, backward)) == expect("""
        a = x @ W
        c = _sg.sum_into(a, a, b)
        a = _sg.shape_of(a)
        v = x @ W
        w = v
        e = v - b
        s = x[0]
        t = s + b
        q = x @ W
        u = -q
        f = _sg.difference_into(u, 1.0, u)
        k = x * 2
        g = k * b
        n = d + 1
        r = n + 2
    """)   # v: aliased, read later; s: a view; g: a product; r: numbers


@pytest.mark.parametrize("shape", [BIG, (4, 3)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("wrt", [0, 1, 2])
def test_a_layer_against_finite_differences(shape, dtype, wrt):
    n, d = shape
    args = [RNG.standard_normal((n, d)).astype(dtype) / 10,
            RNG.standard_normal((d, 3)).astype(dtype), RNG.standard_normal(3).astype(dtype)]
    df = sg.grad(layer, wrt)
    assert "_sg.sum_into(" in sg.source(df)
    before = [a.copy() for a in args]
    got = df(*args)
    for arg, kept in zip(args, before):
        np.testing.assert_array_equal(arg, kept)
    assert got.dtype == dtype and got.shape == args[wrt].shape
    if wrt == 2 or n < 100:   # (a sample of the big cases: finite differences are slow)
        tol = 1e-6 if dtype == np.float64 else 2e-3
        want = numeric_grad(layer, [a.astype(float) for a in args], wrt)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    value, _ = sg.value_and_grad(layer, wrt)(*args)
    assert value == layer(*args)


@pytest.mark.parametrize("wrt", [1, 2])
def test_a_mixture_like_difference_frees_its_arrays(wrt):
    x, m, q = (RNG.standard_normal(s) for s in ((2000, 6), (3, 6, 6), (3, 6)))
    df = sg.grad(centered, wrt)
    source = sg.source(df)
    assert "_sg.difference_into(" in source and "\n    del " in source
    got = df(x, m, q)
    small = [x[:5], m, q]
    np.testing.assert_allclose(sg.grad(centered, wrt)(*small),
                               numeric_grad(centered, small, wrt), rtol=1e-6, atol=1e-6)
    direction = RNG.standard_normal(got.shape)
    eps = 1e-6
    moved = [x, m, q]
    moved[wrt] = [m, q][wrt - 1] + eps * direction
    plus = centered(*moved)
    moved[wrt] = [m, q][wrt - 1] - eps * direction
    numeric = (plus - centered(*moved)) / (2 * eps)
    assert np.sum(got * direction) == pytest.approx(numeric, rel=1e-5)


def test_a_value_read_again_is_not_reused():
    assert "_into" not in sg.source(sg.grad(twice, 0))
    x, W = RNG.standard_normal((4, 5)), RNG.standard_normal((5, 5))
    np.testing.assert_allclose(sg.grad(twice, 1)(x, W), numeric_grad(twice, [x, W], 1),
                               rtol=1e-6, atol=1e-6)


def test_second_derivatives_through_the_reused_sum():
    x, W, b = RNG.standard_normal(BIG) / 10, RNG.standard_normal((120, 3)), \
        RNG.standard_normal(3)
    v = RNG.standard_normal(3)
    hv = sg.hvp(layer, 2)(x, W, b, v)
    grad = sg.grad(layer, 2)
    eps = 1e-6
    numeric = (grad(x, W, b + eps * v) - grad(x, W, b - eps * v)) / (2 * eps)
    np.testing.assert_allclose(hv, numeric, rtol=1e-5, atol=1e-6)

    def outer(b):
        return np.sum(sg.grad(layer, 2)(x, W, b) ** 2)

    np.testing.assert_allclose(sg.grad(outer)(b), numeric_grad(outer, [b], 0), rtol=1e-5,
                               atol=1e-6)


def big(dtype=np.float64, shape=BIG):
    return np.asarray(RNG.standard_normal(shape), dtype=dtype)


@pytest.mark.parametrize("helper, op", [(sum_into, np.add),
                                        (difference_into, np.subtract)])
def test_the_helpers_write_into_the_buffer_only_when_it_holds_the_result(helper, op):
    a, b = big(), big()
    want = op(a, b)
    out = helper(a, a, b)
    assert out is a and np.array_equal(out, want)          # left operand as the buffer
    a, b = big(), big()
    want = op(a, b)
    out = helper(b, a, b)
    assert out is b and np.array_equal(out, want)          # right operand as the buffer
    for buffer, other in [(big(), big()[0]), (big(), 2.5), (big(), 3),
                          (big(np.complex128), 1.5)]:
        want = op(buffer, other)
        assert helper(buffer, buffer, other) is buffer
        np.testing.assert_array_equal(buffer, want)
    for buffer, other in [
            (big(np.float32), big()),                     # the result is float64
            (big(), big(np.float32)),                     # other dtype: left as a + b
            (big(shape=(1, 120)), big()),                 # the result is larger
            (big(np.int64), 1.5), (big(), 1j),            # the dtype changes
            (big()[::2], big()[::2]),                     # a view, too small after all
            (np.ones((4, 3)), np.ones((4, 3)))]:          # below NumPy's elision size
        kept = buffer.copy()
        want = op(buffer, other)
        got = helper(buffer, buffer, other)
        assert got is not buffer and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(buffer, kept)
    frozen = big()
    frozen.flags.writeable = False
    assert helper(frozen, frozen, 1.0) is not frozen
    assert helper(2.0, 2.0, 1.0) == op(2.0, 1.0)
    if op is np.add:   # not arrays: Python's + (here, a concatenation)
        assert sum_into([1.0], [1.0], [2.0]) == [1.0, 2.0]


def test_forward_arrays_are_freed_after_their_last_backward_read():
    from srcgrad.optimize.free_saved import free_after_last_read

    forward = statements("""
        a = x @ W
        v = a[0]
        h = np.tanh(a)
        n = len(x)
        s = np.sum(h)
        k = x @ W
        k = k + 1
    """)
    backward = statements("""
        dh = g * h
        dv = dh * v
        da = dh * (1 - h * h) * n
        dk = g * k
        dW = _sg.matmul_adjoint_b(da, x, W)
    """)
    freed = free_after_last_read(forward, backward, keep={"dW"})
    assert show(freed) == expect("""
        dh = g * h
        dv = dh * v
        da = dh * (1 - h * h) * n
        del h
        dk = g * k
        dW = _sg.matmul_adjoint_b(da, x, W)
    """)   # v: a view; n: a number; k: bound twice; a: not read by the backward
    assert len(backward) == 5   # the split backward keeps its own statements


def test_the_layer_frees_its_hidden_array_and_differentiates_again():
    source = sg.source(sg.grad(layer, 1))
    assert "del h" in source
    x, W, b = RNG.standard_normal((4, 3)), RNG.standard_normal((3, 2)), RNG.standard_normal(2)

    def outer(W):
        return np.sum(sg.grad(layer, 1)(x, W, b) ** 2)

    np.testing.assert_allclose(sg.grad(outer)(W), numeric_grad(outer, [W], 0), rtol=1e-5,
                               atol=1e-6)
