"""A small variational autoencoder: Gaussian encoder, Bernoulli decoder, one Monte Carlo
sample of the evidence lower bound per data point."""
import autograd.numpy as np
import autograd.numpy.random as npr
from autograd import grad
from autograd.misc.optimizers import adam


def diag_gaussian_log_density(x, mu, log_std):
    return np.sum(-0.5 * ((x - mu) / np.exp(log_std))**2 - log_std
                  - 0.5 * np.log(2 * np.pi), axis=-1)


def unpack_gaussian_params(params):
    D = np.shape(params)[-1] // 2
    mean, log_std = params[:, :D], params[:, D:]
    return mean, log_std


def sample_diag_gaussian(mean, log_std, rs):
    return rs.randn(*mean.shape) * np.exp(log_std) + mean


def bernoulli_log_density(targets, unnormalized_logprobs):
    label_probabilities = -np.logaddexp(0, -unnormalized_logprobs * targets)
    return np.sum(label_probabilities, axis=-1)


def relu(x):
    return np.maximum(0, x)


def init_net_params(scale, layer_sizes, rs=npr.RandomState(0)):
    return [(scale * rs.randn(m, n), scale * rs.randn(n))
            for m, n in zip(layer_sizes[:-1], layer_sizes[1:])]


def neural_net_predict(params, inputs):
    for W, b in params:
        outputs = np.dot(inputs, W) + b
        inputs = relu(outputs)
    return outputs


def vae_lower_bound(gen_params, rec_params, data, rs):
    q_means, q_log_stds = unpack_gaussian_params(neural_net_predict(rec_params, data))
    latents = sample_diag_gaussian(q_means, q_log_stds, rs)
    q_latents = diag_gaussian_log_density(latents, q_means, q_log_stds)
    p_latents = diag_gaussian_log_density(latents, 0, 0)
    logits = neural_net_predict(gen_params, latents)
    p_data_given_latents = bernoulli_log_density(data, logits)
    return np.mean(p_data_given_latents + p_latents - q_latents)


latent_dim = 2
data_dim = 6
gen_layer_sizes = [latent_dim, 8, data_dim]
rec_layer_sizes = [data_dim, 8, latent_dim * 2]
init_gen_params = init_net_params(0.3, gen_layer_sizes)
init_rec_params = init_net_params(0.3, rec_layer_sizes)
combined_init_params = (init_gen_params, init_rec_params)
train_images = np.round(npr.RandomState(2).rand(10, data_dim)) * 2 - 1
seed = npr.RandomState(3)


def objective(combined_params, iter):
    gen_params, rec_params = combined_params
    return -vae_lower_bound(gen_params, rec_params, train_images, seed)


def train(num_iters=5):
    return adam(grad(objective), combined_init_params, step_size=0.01, num_iters=num_iters)
