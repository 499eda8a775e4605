"""srcgrad.api.optimizers: first steps against the update rules written out by hand, the
minimum of a quadratic (closed form), and the training example."""

import importlib.util
import pathlib
from typing import NamedTuple

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.api.optimizers import adam, rmsprop, sgd

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "train_mlp.py"


class Affine(NamedTuple):
    w: object
    b: object


START = {"w": np.array([1.0, -2.0]), "layers": [Affine(np.array([[0.5]]), 3.0)]}
GRADIENT = {"w": np.array([0.4, -0.1]), "layers": [Affine(np.array([[2.0]]), -1.0)]}


def constant_gradient(params, i):
    return GRADIENT


def leaves(tree):
    return [tree["w"], tree["layers"][0].w, tree["layers"][0].b]


def test_adam_first_step_is_step_size_times_the_sign():
    params = adam(constant_gradient, START, num_iters=1, step_size=0.1)
    for x, x0, g in zip(leaves(params), leaves(START), leaves(GRADIENT)):
        # m / (1 - b1) = g, v / (1 - b2) = g**2: the step is step_size * g / (|g| + eps)
        assert np.allclose(x, x0 - 0.1 * g / (np.abs(g) + 1e-8))
    assert isinstance(params["layers"][0], Affine) and isinstance(params["layers"], list)


def test_sgd_two_steps_with_momentum():
    params = sgd(constant_gradient, START, num_iters=2, step_size=0.5, mass=0.9)
    for x, x0, g in zip(leaves(params), leaves(START), leaves(GRADIENT)):
        v1 = -0.1 * g
        v2 = 0.9 * v1 - 0.1 * g
        assert np.allclose(x, x0 + 0.5 * v1 + 0.5 * v2)


def test_rmsprop_first_step():
    params = rmsprop(constant_gradient, START, num_iters=1, step_size=0.2, gamma=0.9)
    for x, x0, g in zip(leaves(params), leaves(START), leaves(GRADIENT)):
        assert np.allclose(x, x0 - 0.2 * g / (np.sqrt(0.9 + 0.1 * g ** 2) + 1e-8))


def distance(params, target):
    a = params["w"] - target["w"]
    layer = params["layers"][0]
    return np.sum(a ** 2) + np.sum((layer.w - 1.5) ** 2) + (layer.b + 2.0) ** 2


TARGET = {"w": np.array([0.25, 0.75])}


@pytest.mark.parametrize("optimizer, options", [
    (sgd, {"num_iters": 400, "step_size": 0.1}),
    (rmsprop, {"num_iters": 1000, "step_size": 0.01}),
    (adam, {"num_iters": 800, "step_size": 0.05}),
], ids=["sgd", "rmsprop", "adam"])
def test_each_optimizer_finds_the_minimum_of_a_quadratic(optimizer, options):
    distance_grad = sg.grad(distance)
    calls = []

    def callback(params, i, gradient):
        calls.append(i)
        assert type(gradient["layers"][0]) is Affine

    params = optimizer(lambda p, i: distance_grad(p, TARGET), START, callback=callback,
                       **options)
    assert calls == list(range(options["num_iters"]))
    assert np.allclose(params["w"], TARGET["w"], atol=1e-2)       # the closed-form minimum
    assert np.allclose(params["layers"][0].w, 1.5, atol=1e-2)
    assert params["layers"][0].b == pytest.approx(-2.0, abs=1e-2)


def test_a_gradient_in_another_structure_is_an_error():
    with pytest.raises(ValueError, match="structures differ"):
        adam(lambda p, i: [p["w"]], START, num_iters=1)


def test_the_training_example_fits_its_data(rng):
    spec = importlib.util.spec_from_file_location("train_mlp", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    x, y = example.make_data(rng, count=20)
    params = example.init_params([1, 4, 1], rng)
    gradient = sg.grad(example.loss)(params, x, y)
    direction = [{k: rng.standard_normal(np.shape(v)) for k, v in layer.items()}
                 for layer in params]
    eps = 1e-6
    shifted = [[{k: v + s * eps * d[k] for k, v in layer.items()}
                for layer, d in zip(params, direction)] for s in (1, -1)]
    numeric = (example.loss(shifted[0], x, y) - example.loss(shifted[1], x, y)) / (2 * eps)
    analytic = sum(np.sum(g[k] * d[k]) for g, d in zip(gradient, direction) for k in g)
    assert analytic == pytest.approx(numeric, rel=1e-6)
    lines = []
    _, losses = example.train(num_iters=200, out=lines.append)
    assert len(lines) == 3 and lines[0].startswith("iteration    0")
    assert losses[-1] < 0.1 * losses[0]
