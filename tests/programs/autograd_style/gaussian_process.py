"""Gaussian process regression: fit the kernel's hyperparameters by maximizing the log
marginal likelihood."""
import autograd.numpy as np
import autograd.numpy.random as npr
from autograd import value_and_grad
import autograd.scipy.stats.multivariate_normal as mvn


def make_gp_funs(cov_func, num_cov_params):
    """Functions to fit a Gaussian process with kernel ``cov_func``."""

    def unpack_kernel_params(params):
        mean = params[0]
        cov_params = params[2:]
        noise_scale = np.exp(params[1]) + 0.0001
        return mean, cov_params, noise_scale

    def predict(params, x, y, xstar):
        """Mean and covariance of the posterior at ``xstar``."""
        mean, cov_params, noise_scale = unpack_kernel_params(params)
        cov_f_f = cov_func(cov_params, xstar, xstar)
        cov_y_f = cov_func(cov_params, x, xstar)
        cov_y_y = cov_func(cov_params, x, x) + noise_scale * np.eye(len(y))
        pred_mean = mean + np.dot(np.linalg.solve(cov_y_y, cov_y_f).T, y - mean)
        pred_cov = cov_f_f - np.dot(np.linalg.solve(cov_y_y, cov_y_f).T, cov_y_f)
        return pred_mean, pred_cov

    def log_marginal_likelihood(params, x, y):
        mean, cov_params, noise_scale = unpack_kernel_params(params)
        cov_y_y = cov_func(cov_params, x, x) + noise_scale * np.eye(len(y))
        prior_mean = mean * np.ones(len(y))
        return mvn.logpdf(y, prior_mean, cov_y_y)

    return num_cov_params + 2, predict, log_marginal_likelihood


def rbf_covariance(kernel_params, x, xp):
    output_scale = np.exp(kernel_params[0])
    lengthscales = np.exp(kernel_params[1:])
    diffs = np.expand_dims(x / lengthscales, 1) - np.expand_dims(xp / lengthscales, 0)
    return output_scale * np.exp(-0.5 * np.sum(diffs**2, axis=2))


def build_toy_dataset(D=1, n_data=20, noise_std=0.1):
    rs = npr.RandomState(0)
    inputs = np.concatenate([np.linspace(0, 3, num=n_data // 2),
                             np.linspace(6, 8, num=n_data // 2)])
    targets = (np.cos(inputs) + rs.randn(n_data) * noise_std) / 2.0
    inputs = (inputs - 4.0) / 2.0
    inputs = inputs.reshape((len(inputs), D))
    return inputs, targets


D = 1
X, y = build_toy_dataset(D=D)
num_params, predict, log_marginal_likelihood = make_gp_funs(rbf_covariance, num_cov_params=D + 1)


def objective(params):
    return -log_marginal_likelihood(params, X, y)


init_params = 0.1 * npr.RandomState(1).randn(num_params)


def train(num_iters=5, step_size=0.01, ax=None):
    params = init_params
    for i in range(num_iters):
        value, g = value_and_grad(objective)(params)
        params = params - step_size * g
        if ax:
            pred_mean, pred_cov = predict(params, X, y, X)
            ax.plot(X, pred_mean, "b")
    return params
