"""The workloads: plain NumPy functions, one module each.

Each module defines ``NAME``, ``TARGET`` (the gradient/primal ratio srcgrad aims for),
``WRT`` (argument indices to differentiate), ``objective`` (the NumPy function, written as
a user would), ``inputs(size)`` (``"full"`` for the benchmark, ``"tiny"`` for the smoke
test) and ``torch_objective`` (the same function written with PyTorch).
"""

import importlib

NAMES = ("scalar_loop", "poly_small", "mlp", "rnn", "gmm", "logreg", "lstm", "mlp_layers",
         "gan")


def load(name):
    return importlib.import_module(f"benchmarks.workloads.{name}")


def load_all():
    return [load(name) for name in NAMES]
