"""A neural ODE: fit the dynamics network so that odeint's trajectory matches the data."""
import autograd.numpy as np
import autograd.numpy.random as npr
from autograd import grad
from autograd.scipy.integrate import odeint
from autograd.misc.optimizers import adam


def func(y, t0, A):
    return np.dot(y**3, A)


def nn_predict(inputs, t, params):
    for W, b in params:
        outputs = np.dot(inputs, W) + b
        inputs = np.maximum(0, outputs)
    return outputs


def init_nn_params(scale, layer_sizes, rs=npr.RandomState(0)):
    return [(rs.randn(insize, outsize) * scale, rs.randn(outsize) * scale)
            for insize, outsize in zip(layer_sizes[:-1], layer_sizes[1:])]


def ode_pred(params, target_ts):
    return odeint(nn_predict, true_y0, target_ts, tuple((params,)), rtol=0.01)


def L1_loss(pred, targets):
    return np.mean(np.abs(pred - targets))


true_y0 = np.array([2.0, 0.0])
t = np.linspace(0.0, 1.0, 6)
true_A = np.array([[-0.1, 2.0], [-2.0, -0.1]])
true_y = odeint(func, true_y0, t, args=(true_A,))
init_params = init_nn_params(0.1, layer_sizes=[2, 8, 2])


def train_loss(params, iter):
    pred = ode_pred(params, t)
    return L1_loss(pred, true_y)


def train(num_iters=3):
    return adam(grad(train_loss), init_params, step_size=0.01, num_iters=num_iters)
