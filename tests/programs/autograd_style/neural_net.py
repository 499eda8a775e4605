"""A multilayer perceptron classifier with an L2 penalty, trained with Adam."""
import autograd.numpy as np
import autograd.numpy.random as npr
from autograd import grad
from autograd.scipy.special import logsumexp
from autograd.misc.optimizers import adam


def init_random_params(scale, layer_sizes, rs=npr.RandomState(0)):
    """A list of (weights, biases) tuples, one for each layer."""
    return [(scale * rs.randn(m, n), scale * rs.randn(n))
            for m, n in zip(layer_sizes[:-1], layer_sizes[1:])]


def neural_net_predict(params, inputs):
    """Normalized class log-probabilities."""
    for W, b in params:
        outputs = np.dot(inputs, W) + b
        inputs = np.tanh(outputs)
    return outputs - logsumexp(outputs, axis=1, keepdims=True)


def l2_norm(params):
    return sum(np.sum(W**2) + np.sum(b**2) for W, b in params)


def log_posterior(params, inputs, targets, L2_reg):
    log_prior = -L2_reg * l2_norm(params)
    log_lik = np.sum(neural_net_predict(params, inputs) * targets)
    return log_prior + log_lik


def accuracy(params, inputs, targets):
    target_class = np.argmax(targets, axis=1)
    predicted_class = np.argmax(neural_net_predict(params, inputs), axis=1)
    return np.mean(predicted_class == target_class)


layer_sizes = [4, 6, 3]
L2_reg = 0.1
rs = npr.RandomState(1)
train_images = rs.randn(12, 4)
train_labels = np.eye(3)[rs.randint(0, 3, size=12)]
init_params = init_random_params(0.1, layer_sizes)
batch_size = 4
num_batches = 3


def batch_indices(iter):
    idx = iter % num_batches
    return slice(idx * batch_size, (idx + 1) * batch_size)


def objective(params, iter):
    idx = batch_indices(iter)
    return -log_posterior(params, train_images[idx], train_labels[idx], L2_reg)


objective_grad = grad(objective)


def train(num_iters=5):
    def print_perf(params, iter, gradient):
        if iter % num_batches == 0:
            print(iter, accuracy(params, train_images, train_labels))

    return adam(objective_grad, init_params, step_size=0.01, num_iters=num_iters,
                callback=print_perf)
