"""Checkpointed gradients equal the stored ones; the binomial schedule stores few carries."""

import subprocess
import sys
import tracemalloc

import numpy as np

import srcgrad as sg
from srcgrad.api.checkpointing import binomial
from tests.forward.helpers import close, directional_difference

CALLS = []


def layer(x, w):
    CALLS.append(1)
    return np.tanh(x @ w)


checkpointed_layer = sg.checkpoint(layer)


def two_layers(x, w1, w2):
    return np.sum(checkpointed_layer(checkpointed_layer(x, w1), w2) ** 2)


def two_layers_plain(x, w1, w2):
    return np.sum(layer(layer(x, w1), w2) ** 2)


def test_checkpoint_recomputes_and_matches_the_stored_gradient():
    rng = np.random.default_rng(0)
    x, w1, w2 = rng.standard_normal((4, 3)), rng.standard_normal((3, 3)), \
        rng.standard_normal((3, 2))
    plain = sg.grad(two_layers_plain, (1, 2))(x, w1, w2)
    CALLS.clear()
    checked = sg.grad(two_layers, (1, 2))(x, w1, w2)
    assert len(CALLS) == 4   # each layer runs in the forward sweep and again when recomputed
    for a, b in zip(plain, checked):
        assert np.allclose(a, b, rtol=1e-12, atol=0)
    v = rng.standard_normal((3, 3))
    assert close(np.sum(checked[0] * v), directional_difference(
        lambda w: two_layers(x, w, w2), (w1,), 0, v))


def rnn_step(carry, x, args):
    h, loss = carry
    x_t, y_t = x
    wx, wh = args
    h = np.tanh(x_t @ wx + h @ wh)
    loss = loss + np.sum((h - y_t) ** 2)
    return (h, loss)


def rnn_checkpointed(wx, wh, xs, ys):
    h = np.zeros((xs.shape[1], wh.shape[0]))
    carry = sg.checkpoint_loop(rnn_step, (h, 0.0), (xs, ys), (wx, wh))
    return carry[1]


def rnn_plain(wx, wh, xs, ys):
    h = np.zeros((xs.shape[1], wh.shape[0]))
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ wx + h @ wh)
        loss = loss + np.sum((h - ys[t]) ** 2)
    return loss


def _rnn_inputs(steps, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((3, 5)) / 2, rng.standard_normal((5, 5)) / 3,
            rng.standard_normal((steps, 2, 3)), rng.standard_normal((steps, 2, 5)))


def test_checkpoint_loop_gradient_equals_the_stored_one():
    for steps in (1, 2, 7, 40):
        args = _rnn_inputs(steps)
        plain = sg.grad(rnn_plain, (0, 1))(*args)
        checked = sg.grad(rnn_checkpointed, (0, 1))(*args)
        for a, b in zip(plain, checked):
            assert np.allclose(a, b, rtol=1e-12, atol=1e-300)


def test_checkpoint_loop_against_finite_differences():
    args = _rnn_inputs(6, seed=2)
    v = np.random.default_rng(5).standard_normal((5, 5))
    grad = sg.grad(rnn_checkpointed, 1)(*args)
    assert close(np.sum(grad * v), directional_difference(rnn_checkpointed, args, 1, v))


def test_binomial_capacity():
    assert binomial(9, 3) < 400 <= binomial(9, 4) and binomial(1, 1) == 2


def test_checkpoint_loop_memory_is_a_fraction_of_the_stored_run():
    args = (np.random.default_rng(1).standard_normal((3, 40)),
            np.random.default_rng(4).standard_normal((40, 40)) / 7,
            np.random.default_rng(2).standard_normal((200, 16, 3)),
            np.random.default_rng(3).standard_normal((200, 16, 40)))
    peaks = []
    for f in (rnn_plain, rnn_checkpointed):
        df = sg.grad(f, (0, 1))
        df(*args)
        tracemalloc.start()
        df(*args)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] <= 0.5 * peaks[0]


def test_show_forward_mode_on_the_command_line(tmp_path):
    source = tmp_path / "cube.py"
    source.write_text("def cube(x):\n    return x ** 3\n")
    out = subprocess.run([sys.executable, "-m", "srcgrad", "show", f"{source}:cube",
                          "--mode", "forward", "--color", "never"],
                         capture_output=True, text=True, check=True).stdout
    assert "def cube_jvp(x, x_dot):" in out and "x_dot * 3 * x ** 2" in out


def test_checkpoint_loop_gradient_of_its_sequence_against_finite_differences():
    args = _rnn_inputs(5, seed=3)
    v = np.random.default_rng(6).standard_normal(args[2].shape)
    dxs = sg.grad(rnn_checkpointed, 2)(*args)
    np.testing.assert_allclose(dxs, sg.grad(rnn_plain, 2)(*args), rtol=1e-12, atol=1e-300)
    assert close(np.sum(dxs * v), directional_difference(rnn_checkpointed, args, 2, v))


def test_a_bwd_taking_wrt_is_told_which_cotangents_are_used():
    asked = []

    @sg.custom_vjp
    def scaled(x, w):
        return np.sum(x * w)

    def scaled_fwd(x, w):
        return scaled(x, w), (x, w)

    def scaled_bwd(saved, g, *, wrt):
        asked.append(wrt)
        x, w = saved
        return (g * w if "x" in wrt else None), (g * x if "w" in wrt else None)

    scaled.defvjp(scaled_fwd, scaled_bwd)

    def loss(x, w):
        return scaled(x, w) ** 2

    x, w = np.array([1.0, 2.0]), np.array([3.0, -1.0])
    total = np.sum(x * w)
    np.testing.assert_allclose(sg.grad(loss, 1)(x, w), 2 * total * x)
    assert asked == [("w",)]
    dx, dw = sg.grad(loss, (0, 1))(x, w)
    np.testing.assert_allclose(dx, 2 * total * w)
    np.testing.assert_allclose(dw, 2 * total * x)
    assert asked[-1] == ("x", "w")


def test_checkpoint_loop_step_parameters_may_have_any_names():
    """The step's parameters are taken by position (they were looked up as carry, x,
    args). Oracle: the gradient of the same loop written out, by finite differences."""

    def step(h, item, w):
        return np.tanh(h * w + item)

    def scan_loss(w, xs):
        return np.sum(sg.checkpoint_loop(step, np.zeros(3), xs, w) ** 2)

    xs = np.random.default_rng(3).standard_normal((20, 3))
    eps = 1e-6
    numeric = (scan_loss(0.8 + eps, xs) - scan_loss(0.8 - eps, xs)) / (2 * eps)
    assert np.isclose(sg.grad(scan_loss)(0.8, xs), numeric, rtol=1e-6)
    dxs = sg.grad(scan_loss, wrt=1)(0.8, xs)
    bump = np.zeros_like(xs)
    bump[4, 1] = eps
    numeric = (scan_loss(0.8, xs + bump) - scan_loss(0.8, xs - bump)) / (2 * eps)
    assert np.isclose(dxs[4, 1], numeric, rtol=1e-5)
