"""A small GAN's objective (as in autograd's example): generator and discriminator are
leaky-ReLU MLPs whose parameters are lists of (W, b) pairs; the noise is an input."""

import numpy as np

NAME = "gan"
TARGET = 7.3   # 0.7x autograd's ratio (10.44 when this was added)
WRT = (0, 1)
# (generator widths, discriminator widths, batch)
SIZES = {"full": ((10, 64, 64, 32), (32, 64, 64, 1), 64),
         "tiny": ((3, 4, 4, 5), (5, 4, 3, 1), 3)}


def leaky_relu(x):
    return np.where(x > 0, x, 0.01 * x)


def predict(params, inputs):
    h = inputs
    for W, b in params:
        outputs = h @ W + b
        h = leaky_relu(outputs)
    return outputs


def log_sigmoid(x):
    return -np.logaddexp(0.0, -x)


def objective(gen_params, dsc_params, noise, real_data):
    samples = np.tanh(predict(gen_params, noise))
    logprobs_fake = log_sigmoid(predict(dsc_params, samples))
    logprobs_real = log_sigmoid(predict(dsc_params, real_data))
    return np.mean(logprobs_real) - np.mean(logprobs_fake)


def _layers(rng, widths):
    return [(rng.standard_normal((m, n)) / np.sqrt(m), 0.1 * rng.standard_normal(n))
            for m, n in zip(widths[:-1], widths[1:])]


def inputs(size="full", seed=0):
    gen_widths, dsc_widths, batch = SIZES[size]
    rng = np.random.default_rng(seed)
    gen_params, dsc_params = _layers(rng, gen_widths), _layers(rng, dsc_widths)
    noise = rng.standard_normal((batch, gen_widths[0]))
    real_data = rng.standard_normal((batch, dsc_widths[0]))
    return gen_params, dsc_params, noise, real_data


def torch_objective(gen_params, dsc_params, noise, real_data):
    import torch

    def predict_t(params, inputs):
        h = inputs
        for W, b in params:
            outputs = h @ W + b
            h = torch.where(outputs > 0, outputs, 0.01 * outputs)
        return outputs

    samples = torch.tanh(predict_t(gen_params, noise))
    fake = torch.nn.functional.logsigmoid(predict_t(dsc_params, samples))
    real = torch.nn.functional.logsigmoid(predict_t(dsc_params, real_data))
    return torch.mean(real) - torch.mean(fake)
