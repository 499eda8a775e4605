"""Independent component analysis with Student-t sources: a maximum-likelihood fit."""
import autograd.numpy as np
import autograd.numpy.random as npr
import autograd.scipy.stats.t as t
from autograd import value_and_grad


def make_ica_funs(observed_dimension, latent_dimension):
    """The log likelihood of a linear model with t-distributed latents."""

    def sample(weights, n_samples, noise_std, rs):
        latents = rs.randn(latent_dimension, n_samples)
        latents = np.array(sorted(latents.T, key=lambda a_entry: a_entry[0])).T
        noise = rs.randn(n_samples, observed_dimension) * noise_std
        observed = predict(weights, latents) + noise
        return latents, observed

    def predict(weights, latents):
        return np.dot(weights, latents).T

    def logprob(weights, latents, noise_std, observed):
        preds = predict(weights, latents)
        return np.sum(t.logpdf(preds, 2.4, observed, noise_std))

    num_weights = observed_dimension * latent_dimension
    return num_weights, sample, logprob


observed_dimension = 4
latent_dimension = 2
num_latent_samples = 20
noise_std = 0.1
num_weights, sample, logprob = make_ica_funs(observed_dimension, latent_dimension)
rs = npr.RandomState(0)
true_weights = rs.randn(observed_dimension, latent_dimension)
true_latents, data = sample(true_weights, num_latent_samples, noise_std, rs)
init_weights = 0.1 * rs.randn(num_weights)
init_latents = 0.1 * rs.randn(*true_latents.shape)
init_params = np.concatenate([init_weights, init_latents.ravel()])


def objective(params):
    weight_matrix = params[:num_weights].reshape((observed_dimension, latent_dimension))
    latents = params[num_weights:].reshape((latent_dimension, num_latent_samples))
    return -logprob(weight_matrix, latents, noise_std, data)


def train(num_iters=5, step_size=1e-4):
    params = init_params
    for i in range(num_iters):
        value, g = value_and_grad(objective)(params)
        params = params - step_size * g
    return params
