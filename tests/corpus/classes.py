"""Classes: methods differentiated w.r.t. their arguments, parameter objects read by
attribute, dataclasses and NamedTuples as argument containers, callable objects."""

import dataclasses
import typing

import numpy as np


class Polynomial:
    def __init__(self, coefficients):
        self.coefficients = coefficients

    def evaluate(self, x):
        total = 0.0
        for power, c in enumerate(self.coefficients):
            total = total + c * x ** power
        return total

    def squared_error(self, x, target):
        return (self.evaluate(x) - target) ** 2


class Dense:
    def __init__(self, W, b):
        self.W, self.b = W, b

    def forward(self, x):
        return np.tanh(self.W @ x + self.b)

    def loss(self, x, target):
        return np.sum((self.forward(x) - target) ** 2)

    def loss_of_weights(self, W, x):
        """A method differentiated w.r.t. a weight matrix passed in, not the attribute."""
        return np.sum(np.tanh(W @ x + self.b) ** 2)


class Quadratic:
    """A loss object: ``sg.grad(Quadratic(A, b))`` differentiates ``__call__``."""

    def __init__(self, A, b):
        self.A, self.b = A, b

    def __call__(self, x):
        return 0.5 * x @ self.A @ x - self.b @ x


class Scaled:
    scale = 2.5

    def __call__(self, x, y):
        return self.scale * np.sum(np.sin(x) * y)


class Stack:
    def __init__(self, layers):
        self.layers = layers


def stacked_layers(net, x):
    for i in range(len(net.layers)):
        x = np.tanh(net.layers[i].W @ x + net.layers[i].b)
    return np.sum(x ** 2)


def attribute_params(p, x):
    return np.sum((p.slope * x + p.intercept - np.sin(x)) ** 2)


@dataclasses.dataclass
class LinearParams:
    weight: np.ndarray
    bias: float


def dataclass_loss(params, X, y):
    pred = X @ params.weight + params.bias
    return np.mean((pred - y) ** 2)


@dataclasses.dataclass
class GaussianParams:
    mean: np.ndarray
    log_scale: np.ndarray


def dataclass_nll(params, data):
    z = (data - params.mean) * np.exp(-params.log_scale)
    return np.sum(0.5 * z ** 2 + params.log_scale)


class Affine(typing.NamedTuple):
    W: np.ndarray
    b: np.ndarray


def namedtuple_loss(layer, x):
    return np.sum(np.tanh(layer.W @ x + layer.b) ** 2)


def namedtuple_unpacked(layer, x):
    W, b = layer
    return np.sum((W @ x) * b)


def list_of_namedtuples(layers, x):
    for layer in layers:
        x = np.tanh(layer.W @ x + layer.b)
    return np.sum(x)


def object_method_call(x):
    poly = Polynomial([1.0, -2.0, 0.5])
    return poly.evaluate(x) * np.sin(x)
