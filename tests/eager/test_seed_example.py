"""The seed's worked example, line by line, through srcgrad.tfe (only imports changed)."""

import numpy as np
import pytest

import srcgrad.tfe as tf
import srcgrad.tfe as tfe


@pytest.fixture
def weights():
    w1 = tfe.Variable(2.0)
    w2 = tfe.Variable(3.0)

    def weighted_sum(x1, x2):
        return w1 * x1 + w2 * x2

    return w1, w2, weighted_sum


def weighted_sum_with_weights(w1, x1, w2, x2):
    return w1 * x1 + w2 * x2


def test_enable_eager_execution_is_a_no_op():
    assert tf.enable_eager_execution() is None


def test_calling_the_function(weights):
    _, _, weighted_sum = weights
    assert weighted_sum(5., 7.).numpy() == 31.0


def test_gradient_tape(weights):
    w1, _, weighted_sum = weights
    with tf.GradientTape() as tape:
        s = weighted_sum(5., 7.)
    [w1_grad] = tape.gradient(s, [w1])
    assert w1_grad.numpy() == 5.0


def test_gradients_function(weights):
    _, _, weighted_sum = weights
    x1_grad, x2_grad = tfe.gradients_function(weighted_sum)(5., 7.)
    assert (x1_grad.numpy(), x2_grad.numpy()) == (2.0, 3.0)


def test_gradients_function_with_named_params(weights):
    w1, w2, _ = weights
    grad_fn = tfe.gradients_function(weighted_sum_with_weights, params=["w1", "w2"])
    [w1_grad, w2_grad] = grad_fn(w1, 5., w2, 7.)
    assert (w1_grad.numpy(), w2_grad.numpy()) == (5.0, 7.0)


def test_implicit_gradients(weights):
    w1, w2, weighted_sum = weights
    [(w1_grad, w1_var), (w2_grad, w2_var)] = tfe.implicit_gradients(weighted_sum)(5., 7.)
    assert (w1_grad.numpy(), w2_grad.numpy()) == (5.0, 7.0)
    assert w1_var is w1 and w2_var is w2


def test_implicit_gradients_skip_a_non_trainable_variable():
    w1 = tfe.Variable(2., trainable=False)
    w2 = tfe.Variable(3.0)

    def weighted_sum(x1, x2):
        return w1 * x1 + w2 * x2

    [(w2_grad, w2_var)] = tfe.implicit_gradients(weighted_sum)(5., 7.)
    assert w2_grad.numpy() == 7.0 and w2_var is w2


def test_implicit_value_and_gradients(weights):
    w1, w2, weighted_sum = weights
    s, [(w1_grad, w1_var), (w2_grad, w2_var)] = \
        tfe.implicit_value_and_gradients(weighted_sum)(5., 7.)
    assert s.numpy() == 31.0
    assert (w1_grad.numpy(), w2_grad.numpy()) == (5.0, 7.0)
    assert w1_var is w1 and w2_var is w2


def test_example_script_prints_the_expected_numbers(capsys):
    import runpy
    from pathlib import Path

    runpy.run_path(str(Path(__file__).parents[2] / "examples" / "seed_qa.py"))
    lines = capsys.readouterr().out.splitlines()
    assert [float(v) for v in lines[:6]] == [31.0, 5.0, 2.0, 7.0, 5.0, 31.0]
    source = "\n".join(lines[6:])
    assert "_sg.read_variable(w1)" in source and "_sg.variable_cotangent(w1" in source
    assert np.isfinite(31.0)
