"""Black-box stochastic variational inference with a diagonal Gaussian approximation."""
import autograd.numpy as np
import autograd.numpy.random as npr
import autograd.scipy.stats.multivariate_normal as mvn
import autograd.scipy.stats.norm as norm
from autograd import grad
from autograd.misc.optimizers import adam


def black_box_variational_inference(logprob, D, num_samples):
    """The variational objective and its gradient, for log density ``logprob``."""

    def unpack_params(params):
        mean, log_std = params[:D], params[D:]
        return mean, log_std

    def gaussian_entropy(log_std):
        return 0.5 * D * (1.0 + np.log(2 * np.pi)) + np.sum(log_std)

    rs = npr.RandomState(0)

    def variational_objective(params, t):
        """A noisy estimate of the negative evidence lower bound."""
        mean, log_std = unpack_params(params)
        samples = rs.randn(num_samples, D) * np.exp(log_std) + mean
        lower_bound = gaussian_entropy(log_std) + np.mean(logprob(samples, t))
        return -lower_bound

    gradient = grad(variational_objective)
    return variational_objective, gradient, unpack_params, rs


D = 2


def log_density(x, t):
    mu, log_sigma = x[:, 0], x[:, 1]
    sigma_density = norm.logpdf(log_sigma, 0, 1.35)
    mu_density = norm.logpdf(mu, 0, np.exp(log_sigma))
    return sigma_density + mu_density


objective, gradient, unpack_params, rs = black_box_variational_inference(
    log_density, D, num_samples=200)
init_mean = -1 * np.ones(D)
init_log_std = -5 * np.ones(D)
init_params = np.concatenate([init_mean, init_log_std])


def train(num_iters=5):
    def callback(params, t, g):
        print("Iteration {} lower bound {}".format(t, -objective(params, t)))

    return adam(gradient, init_params, step_size=0.1, num_iters=num_iters, callback=callback)


def isotropic_check(params):
    mean, log_std = unpack_params(params)
    return mvn.logpdf(mean, np.zeros(D), np.diag(np.exp(2 * log_std)))
