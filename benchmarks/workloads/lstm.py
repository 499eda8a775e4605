"""ADBench's LSTM objective: 2 layers with diagonal weights, a Python loop over characters.

As in ADBench, the log-normaliser is ``log(sum(exp(y)) + 2)``, and the sizes are 2 layers
and an alphabet of 14; the sequence is 32 characters instead of ADBench's 1024, because
``jax.jit`` unrolls the loop and its compile time grows faster than linearly (more than
ten minutes at 128 characters on the benchmark machine). Every character costs the same,
so the gradient/primal ratio does not depend on the length.
"""

import numpy as np

NAME = "lstm"
TARGET = 3.5
WRT = (0, 1)
# (layers, alphabet size, characters)
SIZES = {"full": (2, 14, 32), "tiny": (2, 3, 4)}


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def lstm_model(weight, bias, hidden, cell, inp):
    gates = np.concatenate((inp, hidden, inp, hidden)) * weight + bias
    size = hidden.shape[0]
    forget = sigmoid(gates[0:size])
    ingate = sigmoid(gates[size:2 * size])
    outgate = sigmoid(gates[2 * size:3 * size])
    change = np.tanh(gates[3 * size:])
    cell = cell * forget + ingate * change
    hidden = outgate * np.tanh(cell)
    return hidden, cell


def lstm_predict(main_params, extra_params, state, x):
    x = x * extra_params[0]
    new_state = []
    for i in range(0, len(state), 2):
        hidden, cell = lstm_model(main_params[i], main_params[i + 1], state[i], state[i + 1], x)
        new_state.append(hidden)
        new_state.append(cell)
        x = hidden
    return x * extra_params[1] + extra_params[2], np.stack(new_state)


def objective(main_params, extra_params, state, sequence):
    total = 0.0
    count = 0
    x = sequence[0]
    for t in range(sequence.shape[0] - 1):
        ypred, state = lstm_predict(main_params, extra_params, state, x)
        ynorm = ypred - np.log(np.sum(np.exp(ypred)) + 2.0)
        ygold = sequence[t + 1]
        total = total + np.sum(ygold * ynorm)
        count = count + ygold.shape[0]
        x = ygold
    return -total / count


def inputs(size="full", seed=0):
    layers, alphabet, characters = SIZES[size]
    rng = np.random.default_rng(seed)
    main_params = rng.uniform(-1.0, 1.0, (2 * layers, 4 * alphabet))
    extra_params = rng.uniform(-1.0, 1.0, (3, alphabet))
    state = rng.uniform(-1.0, 1.0, (2 * layers, alphabet))
    sequence = np.eye(alphabet)[rng.integers(0, alphabet, characters)]
    return main_params, extra_params, state, sequence


def _torch_model(weight, bias, hidden, cell, inp):
    import torch

    gates = torch.cat((inp, hidden, inp, hidden)) * weight + bias
    size = hidden.shape[0]
    forget = torch.sigmoid(gates[0:size])
    ingate = torch.sigmoid(gates[size:2 * size])
    outgate = torch.sigmoid(gates[2 * size:3 * size])
    change = torch.tanh(gates[3 * size:])
    cell = cell * forget + ingate * change
    hidden = outgate * torch.tanh(cell)
    return hidden, cell


def torch_objective(main_params, extra_params, state, sequence):
    import torch

    total = 0.0
    count = 0
    x = sequence[0]
    state = list(state)
    for t in range(sequence.shape[0] - 1):
        x = x * extra_params[0]
        new_state = []
        for i in range(0, len(state), 2):
            hidden, cell = _torch_model(main_params[i], main_params[i + 1],
                                        state[i], state[i + 1], x)
            new_state += [hidden, cell]
            x = hidden
        ypred = x * extra_params[1] + extra_params[2]
        state = new_state
        ynorm = ypred - torch.log(torch.sum(torch.exp(ypred)) + 2.0)
        ygold = sequence[t + 1]
        total = total + torch.sum(ygold * ynorm)
        count = count + ygold.shape[0]
        x = ygold
    return -total / count
