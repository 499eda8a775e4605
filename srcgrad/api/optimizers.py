"""Gradient-descent optimizers over pytrees, with autograd's calling convention.

``grad_fn(params, i)`` returns the gradient at iteration ``i`` in the structure of
``params`` (a dict, list, tuple, NamedTuple or dataclass of arrays, or one array);
``callback(params, i, gradient)``, if given, runs before each step. Each optimizer
returns the final parameters, in the same structure::

    loss_grad = sg.grad(loss)
    params = adam(lambda p, i: loss_grad(p, x, y), params, num_iters=500,
                  callback=lambda p, i, g: i % 100 or print(i, loss(p, x, y)))

The update rules are autograd's (``autograd.misc.optimizers``), applied leaf by leaf.
Needs only NumPy.
"""

from __future__ import annotations

import numpy as np

from srcgrad.api.pytree import tree_map


def sgd(grad_fn, init_params, callback=None, num_iters=200, step_size=0.1, mass=0.9):
    """Stochastic gradient descent with momentum: ``v = mass * v - (1 - mass) * g``,
    ``params = params + step_size * v``."""
    params = init_params
    velocity = tree_map(_zeros, params)
    for i in range(num_iters):
        gradient = grad_fn(params, i)
        if callback is not None:
            callback(params, i, gradient)
        velocity = tree_map(lambda v, g: mass * v - (1.0 - mass) * g, velocity, gradient)
        params = tree_map(lambda x, v: x + step_size * v, params, velocity)
    return params


def rmsprop(grad_fn, init_params, callback=None, num_iters=100, step_size=0.1, gamma=0.9,
            eps=1e-8):
    """Root-mean-square propagation: each step divided by a running root mean square of
    the gradients (started at ones)."""
    params = init_params
    mean_square = tree_map(lambda x: _zeros(x) + 1.0, params)
    for i in range(num_iters):
        gradient = grad_fn(params, i)
        if callback is not None:
            callback(params, i, gradient)
        mean_square = tree_map(lambda s, g: s * gamma + g ** 2 * (1 - gamma),
                               mean_square, gradient)
        params = tree_map(lambda x, g, s: x - step_size * g / (np.sqrt(s) + eps),
                          params, gradient, mean_square)
    return params


def adam(grad_fn, init_params, callback=None, num_iters=100, step_size=0.001, b1=0.9,
         b2=0.999, eps=1e-8):
    """Adam (Kingma and Ba, 2015): running means of the gradient and of its square, with
    their bias corrected, set each leaf's step."""
    params = init_params
    first = tree_map(_zeros, params)
    second = tree_map(_zeros, params)
    for i in range(num_iters):
        gradient = grad_fn(params, i)
        if callback is not None:
            callback(params, i, gradient)
        first = tree_map(lambda m, g: (1 - b1) * g + b1 * m, first, gradient)
        second = tree_map(lambda v, g: (1 - b2) * g ** 2 + b2 * v, second, gradient)
        params = tree_map(_adam_step(step_size, 1 - b1 ** (i + 1), 1 - b2 ** (i + 1), eps),
                          params, first, second)
    return params


def _adam_step(step_size, first_correction, second_correction, eps):
    """One leaf's Adam update, with this iteration's bias corrections."""
    def step(x, m, v):
        return x - step_size * (m / first_correction) / (np.sqrt(v / second_correction) + eps)
    return step


def _zeros(x):
    """Zeros shaped like a parameter leaf (float for an int leaf, 0.0 for a scalar)."""
    if not np.ndim(x):
        return 0.0
    return np.zeros_like(x) if x.dtype.kind in "fc" else np.zeros(np.shape(x))


__all__ = ["adam", "rmsprop", "sgd"]
