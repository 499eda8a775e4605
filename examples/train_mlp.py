"""Train a small neural network with srcgrad's generated gradient and Adam.

The parameters are a pytree (a list of layer dicts); ``sg.grad`` returns the gradient in
the same structure, and ``srcgrad.optimizers.adam`` (autograd's calling convention)
updates it leaf by leaf, reporting progress through its callback.

    python examples/train_mlp.py
"""

import numpy as np

import srcgrad as sg
from srcgrad.optimizers import adam


def init_params(sizes, rng):
    return [{"w": rng.standard_normal((m, n)) / np.sqrt(m), "b": np.zeros(n)}
            for m, n in zip(sizes[:-1], sizes[1:])]


def predict(params, x):
    h = x
    for layer in params[:-1]:
        h = np.tanh(h @ layer["w"] + layer["b"])
    last = params[-1]
    return h @ last["w"] + last["b"]


def loss(params, x, y):
    return np.mean((predict(params, x) - y) ** 2)


def make_data(rng, count=200):
    x = rng.uniform(-3.0, 3.0, size=(count, 1))
    return x, np.sin(x) + 0.05 * rng.standard_normal((count, 1))


def train(num_iters=600, step_size=0.02, batch=50, seed=0, report_every=100, out=print):
    """Fit ``sin`` with a 1-16-16-1 network on minibatches; returns (params, losses)."""
    rng = np.random.default_rng(seed)
    x, y = make_data(rng)
    loss_grad = sg.grad(loss)
    batches = len(x) // batch

    def objective_grad(params, i):
        part = slice((i % batches) * batch, (i % batches + 1) * batch)
        return loss_grad(params, x[part], y[part])

    losses = []

    def progress(params, i, gradient):
        if i % report_every == 0 or i == num_iters - 1:
            losses.append(loss(params, x, y))
            out(f"iteration {i:4d}   training loss {losses[-1]:.5f}")

    params = adam(objective_grad, init_params([1, 16, 16, 1], rng), callback=progress,
                  num_iters=num_iters, step_size=step_size)
    return params, losses


if __name__ == "__main__":
    train()
