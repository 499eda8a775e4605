"""ADBench's LSTM objective (diagonal weights, 2 layers, character sequences), as its
PyTorch module writes it (``src/python/modules/PyTorch/lstm_objective.py``, also
GradBench's ``tools/pytorch/lstm_objective.py``), in plain NumPy.

Unlike ``benchmarks.workloads.lstm`` (which builds each new state with ``np.stack``), the
state is copied and its rows written in place (``s2[i], s2[i + 1] = ...``), and every
state is kept in a growing list ``all_states`` that the loop indexes: the shape of program
whose run-time aliasing checks once walked the whole list before every row write.

    python -m benchmarks.gradbench.measure lstm --sizes 128 256 512 1024

prints the gradient/primal ratio (one BLAS thread, medians) at each sequence length.
"""

import numpy as np

from benchmarks.workloads.lstm import lstm_model  # the cell is the same; the state differs

LAYERS = 2
ALPHABET = 14


def lstm_predict(w, w2, s, x):
    s2 = s.copy()
    x = x * w2[0]
    for i in range(0, len(s), 2):
        s2[i], s2[i + 1] = lstm_model(w[i], w[i + 1], s[i], s[i + 1], x)
        x = s2[i]
    return x * w2[1] + w2[2], s2


def objective(main_params, extra_params, state, sequence):
    total = 0.0
    count = 0
    inp = sequence[0]
    all_states = [state]
    for t in range(len(sequence) - 1):
        ypred, new_state = lstm_predict(main_params, extra_params, all_states[t], inp)
        all_states.append(new_state)
        ynorm = ypred - np.log(np.sum(np.exp(ypred)) + 2.0)
        ygold = sequence[t + 1]
        total = total + np.sum(ygold * ynorm)
        count = count + ygold.shape[0]
        inp = ygold
    return -total / count


DERIVATIVE = "gradient"
WRT = (0, 1)
# characters
SIZES = {"bench": 1024, "tiny": 4}


def inputs(characters, layers=LAYERS, alphabet=ALPHABET, seed=0):
    rng = np.random.default_rng(seed)
    main_params = rng.uniform(-1.0, 1.0, (2 * layers, 4 * alphabet))
    extra_params = rng.uniform(-1.0, 1.0, (3, alphabet))
    state = rng.uniform(-1.0, 1.0, (2 * layers, alphabet))
    sequence = np.eye(alphabet)[rng.integers(0, alphabet, characters)]
    return main_params, extra_params, state, sequence
