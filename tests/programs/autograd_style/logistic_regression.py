"""Logistic regression by gradient descent, with a check of the gradient."""
import autograd.numpy as np
from autograd import grad
from autograd.test_util import check_grads


def sigmoid(x):
    return 0.5 * (np.tanh(x / 2.0) + 1)


def logistic_predictions(weights, inputs):
    return sigmoid(np.dot(inputs, weights))


def training_loss(weights):
    preds = logistic_predictions(weights, inputs)
    label_probabilities = preds * targets + (1 - preds) * (1 - targets)
    return -np.sum(np.log(label_probabilities))


inputs = np.array([[0.52, 1.12, 0.77],
                   [0.88, -1.08, 0.15],
                   [0.52, 0.06, -1.30],
                   [0.74, -2.49, 1.39]])
targets = np.array([True, True, False, True])
training_gradient_fun = grad(training_loss)
init_params = np.array([0.0, 0.0, 0.0])


def train(num_iters=5):
    weights = init_params
    check_grads(training_loss, modes=["rev"])(weights)
    for i in range(num_iters):
        weights -= training_gradient_fun(weights) * 0.01
    return weights
