"""Well-known small models, written the way their tutorials write them: regression,
recurrent nets, mixtures, Gaussian processes, and a network class with ``__call__``."""

import numpy as np


def sigmoid(z):
    return 0.5 * (np.tanh(z / 2.0) + 1.0)


def logistic_regression(weights, inputs, targets):
    """Negative log-likelihood of labels in {0, 1} under a linear logistic model."""
    probs = sigmoid(inputs @ weights)
    label_probs = probs * targets + (1 - probs) * (1 - targets)
    return -np.sum(np.log(label_probs))


def logistic_regression_l2(w, b, X, y, lam=0.1):
    logits = X @ w + b
    # log(1 + exp(-y * logits)) with labels in {-1, +1}, written stably
    margins = y * logits
    losses = np.logaddexp(0.0, -margins)
    return np.mean(losses) + 0.5 * lam * np.dot(w, w)


def softmax_regression(W, X, labels):
    logits = X @ W
    logits = logits - logits.max(axis=1, keepdims=True)
    log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return -log_probs[np.arange(len(labels)), labels].mean()


def mlp_dict_params(params, X, y):
    """A 2-layer perceptron with its parameters in a dict, squared error."""
    hidden = np.tanh(X @ params["W1"] + params["b1"])
    out = hidden @ params["W2"] + params["b2"]
    return np.mean((out.ravel() - y) ** 2)


def init_rnn(n_in, n_hidden):
    rng = np.random.default_rng(3)
    return {"Wx": 0.4 * rng.standard_normal((n_in, n_hidden)),
            "Wh": 0.4 * rng.standard_normal((n_hidden, n_hidden)),
            "b": np.zeros(n_hidden),
            "Wout": 0.4 * rng.standard_normal(n_hidden)}


def rnn_loss(params, inputs, targets):
    """An Elman RNN unrolled by a Python loop over time, squared error per step."""
    hidden = np.zeros(params["Wh"].shape[0])
    loss = 0.0
    for t in range(inputs.shape[0]):
        hidden = np.tanh(inputs[t] @ params["Wx"] + hidden @ params["Wh"] + params["b"])
        prediction = hidden @ params["Wout"]
        loss = loss + (prediction - targets[t]) ** 2
    return loss / inputs.shape[0]


def rnn_hidden_states(Wx, Wh, xs):
    states = []
    h = np.zeros(Wh.shape[0])
    for x in xs:
        h = np.tanh(Wx @ x + Wh @ h)
        states.append(h)
    return np.sum(np.stack(states) ** 2)


def lstm_cell(W, U, b, x, h, c):
    gates = W @ x + U @ h + b
    n = h.shape[0]
    i = sigmoid(gates[:n])
    f = sigmoid(gates[n:2 * n])
    o = sigmoid(gates[2 * n:3 * n])
    g = np.tanh(gates[3 * n:])
    c_new = f * c + i * g
    h_new = o * np.tanh(c_new)
    return h_new, c_new


def lstm_sequence_loss(W, U, b, xs):
    n = U.shape[1]
    h, c = np.zeros(n), np.zeros(n)
    for x in xs:
        h, c = lstm_cell(W, U, b, x, h, c)
    return np.sum(h ** 2) + 0.1 * np.sum(c)


def bilinear_layer(x1, x2, W, b):
    """y_k = x1^T W_k x2 + b_k, as in a bilinear (tensor product) layer."""
    y = np.einsum("i,kij,j->k", x1, W, x2) + b
    return np.sum(np.tanh(y))


def bilinear_batched(X1, X2, W):
    out = np.einsum("ni,kij,nj->nk", X1, W, X2)
    return np.mean(out ** 2)


def logsumexp(a, axis=None):
    peak = np.max(a, axis=axis, keepdims=True)
    return np.squeeze(peak, axis=axis) + np.log(np.sum(np.exp(a - peak), axis=axis))


def gmm_log_likelihood(log_weights, means, log_stds, data):
    """Log-likelihood of 1-D data under a Gaussian mixture (component axis last)."""
    weights = log_weights - logsumexp(log_weights)
    stds = np.exp(log_stds)
    z = (data[:, None] - means) / stds
    component_logpdf = -0.5 * z ** 2 - log_stds - 0.5 * np.log(2 * np.pi)
    return np.sum(logsumexp(component_logpdf + weights, axis=1))


def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def rbf_kernel(X, lengthscale, variance):
    sq = np.sum(X ** 2, axis=1)
    dists = sq[:, None] + sq[None, :] - 2.0 * X @ X.T
    return variance * np.exp(-0.5 * dists / lengthscale ** 2)


def gp_negative_log_marginal_likelihood(log_lengthscale, log_variance, log_noise, X, y):
    K = rbf_kernel(X, np.exp(log_lengthscale), np.exp(log_variance))
    K = K + np.exp(log_noise) * np.eye(len(y))
    L = np.linalg.cholesky(K)
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L))) + 0.5 * len(y) * np.log(2 * np.pi)


def gaussian_nll(mu, log_sigma, x):
    return np.sum(log_sigma + 0.5 * ((x - mu) / np.exp(log_sigma)) ** 2)


def linear_regression_ridge(w, X, y, alpha=0.5):
    residual = X.dot(w) - y
    return residual.dot(residual) / len(y) + alpha * (w ** 2).sum()


def huber_loss(pred, target, delta=1.0):
    err = np.abs(pred - target)
    quadratic = np.minimum(err, delta)
    linear = err - quadratic
    return np.sum(0.5 * quadratic ** 2 + delta * linear)


def poisson_regression(w, X, counts):
    rate = np.exp(X @ w)
    return np.sum(rate - counts * np.log(rate))


def scaled_dot_product_attention(Q, K, V):
    scores = Q @ K.T / np.sqrt(K.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return np.sum((weights @ V) ** 2)


def batch_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=0)
    var = x.var(axis=0)
    x_hat = (x - mean) / np.sqrt(var + eps)
    return np.sum((gamma * x_hat + beta) ** 3)


def conv1d_valid(signal, kernel):
    width = len(kernel)
    out = np.array([np.dot(signal[i:i + width], kernel)
                    for i in range(len(signal) - width + 1)])
    return np.sum(np.maximum(out, 0.0) ** 2)


def vae_elbo(mu, log_var, decoder_w, x, eps):
    """One-sample ELBO of a linear-Gaussian VAE with a fixed reparameterisation noise."""
    z = mu + np.exp(0.5 * log_var) * eps
    recon = decoder_w @ z
    log_lik = -0.5 * np.sum((x - recon) ** 2)
    kl = -0.5 * np.sum(1 + log_var - mu ** 2 - np.exp(log_var))
    return -(log_lik - kl)


class NeuralNet:
    """A small multilayer perceptron; calling the object runs the forward pass."""

    def __init__(self, sizes, seed=0):
        rng = np.random.default_rng(seed)
        self.weights = [0.5 * rng.standard_normal((m, n)) for m, n in zip(sizes[:-1], sizes[1:])]
        self.biases = [0.1 * rng.standard_normal(n) for n in sizes[1:]]

    def __call__(self, x):
        for W, b in zip(self.weights[:-1], self.biases[:-1]):
            x = np.tanh(x @ W + b)
        return x @ self.weights[-1] + self.biases[-1]


def network_loss(net, X, y):
    """Mean squared error of a NeuralNet: the gradient comes back as a NeuralNet."""
    return np.mean((net(X).ravel() - y) ** 2)


class Regressor:
    """A model object whose ``__call__`` is its loss, for ``sg.grad(model)``."""

    def __init__(self, X, y):
        self.X, self.y = X, y

    def __call__(self, w, b):
        pred = self.X @ w + b
        return np.mean((pred - self.y) ** 2)
