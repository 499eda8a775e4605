"""A Gaussian mixture model fit by gradient descent on its negative log likelihood."""
import autograd.numpy as np
import autograd.numpy.random as npr
import autograd.scipy.stats.multivariate_normal as mvn
from autograd import grad
from autograd.scipy.special import logsumexp
from autograd.misc.optimizers import adam


def init_gmm_params(num_components, D, scale, rs=npr.RandomState(0)):
    return {"log proportions": rs.randn(num_components) * scale,
            "means": rs.randn(num_components, D) * scale,
            "lower triangles": np.zeros((num_components, D, D)) + np.eye(D)}


def log_normalize(x):
    return x - logsumexp(x)


def unpack_gmm_params(params):
    normalized_log_proportions = log_normalize(params["log proportions"])
    return normalized_log_proportions, params["means"], params["lower triangles"]


def gmm_log_likelihood(params, data):
    cluster_lls = []
    for log_proportion, mean, cov_sqrt in zip(*unpack_gmm_params(params)):
        cov = np.dot(cov_sqrt.T, cov_sqrt)
        cluster_lls.append(log_proportion + mvn.logpdf(data, mean, cov))
    return np.sum(logsumexp(np.vstack(cluster_lls), axis=0))


def make_data(rs=npr.RandomState(1)):
    centers = np.array([[-2.0, 0.0], [2.0, 1.0]])
    return np.concatenate([c + 0.5 * rs.randn(15, 2) for c in centers])


data = make_data()
init_params = init_gmm_params(num_components=3, D=2, scale=0.1)


def objective(params):
    return -gmm_log_likelihood(params, data)


def train(num_iters=5):
    return adam(grad(lambda params, i: objective(params)), init_params, step_size=0.1,
                num_iters=num_iters)
