"""What the TF-eager APIs cost over ``sg.value_and_grad`` on the same function.

Each model's parameters are Variables read as globals by a ``@sg.differentiable`` loss.
Four ways to get the loss and the parameters' gradients, all running generated code:

- ``value_and_grad`` (the baseline): ``sg.value_and_grad(loss_explicit, wrt=params)``,
  the same body with the parameters passed explicitly as arrays, so the same
  derivative work is done;
- ``implicit``: ``sg.implicit_value_and_gradients(loss)(x, y)``;
- ``tape``:     ``with sg.GradientTape() as t: l = loss(x, y)``, then
  ``t.gradient(l, [params])``;
- ``arguments``: ``sg.implicit_value_and_gradients(passing)(x, y)``, where ``passing``
  (undecorated) calls the explicit loss with the Variables as its arguments, TF-1 style:
  ``mlp_arguments(x, y) = mlp_explicit(W1, b1, W2, b2, x, y)``.

A second table: the decorated loss called outside any tape (its generated forward), over
the explicit body on the parameters' arrays (the NumPy primal).

Timing: CPU time of this process (``time.process_time``, so other work on a shared
machine counts less), one BLAS thread, the four candidates interleaved round-robin,
each measurement a loop of at least ``--min-time`` seconds with the garbage collector
paused. Times are medians over ``--repeats`` rounds; an overhead is the median over
rounds of the candidate's time minus (or over) the baseline's in the same round, which a
load changing between rounds does not move. Run: ``python -m benchmarks.eager_overhead``.
"""

from __future__ import annotations

import argparse
import gc
import math
import statistics
import time

import numpy as np

import srcgrad as sg
from benchmarks import threads

rng = np.random.default_rng(0)
N_IN, N_HIDDEN = 20, 32

# -- logistic regression ------------------------------------------------------------
w = sg.Variable(rng.standard_normal(N_IN) * 0.1)
c = sg.Variable(0.0)


@sg.differentiable
def logreg(x, y):
    z = x @ w + c
    return np.mean(np.log1p(np.exp(-y * z)))


def logreg_explicit(w, c, x, y):
    z = x @ w + c
    return np.mean(np.log1p(np.exp(-y * z)))


# -- a small MLP: 20 -> 32 tanh -> 1, squared error ----------------------------------
W1 = sg.Variable(rng.standard_normal((N_IN, N_HIDDEN)) * 0.3)
b1 = sg.Variable(np.zeros(N_HIDDEN))
W2 = sg.Variable(rng.standard_normal((N_HIDDEN, 1)) * 0.3)
b2 = sg.Variable(np.zeros(1))


@sg.differentiable
def mlp(x, y):
    h = np.tanh(x @ W1 + b1)
    out = h @ W2 + b2
    return np.mean((out[:, 0] - y) ** 2)


def mlp_explicit(W1, b1, W2, b2, x, y):
    h = np.tanh(x @ W1 + b1)
    out = h @ W2 + b2
    return np.mean((out[:, 0] - y) ** 2)


def logreg_arguments(x, y):
    return logreg_explicit(w, c, x, y)


def mlp_arguments(x, y):
    return mlp_explicit(W1, b1, W2, b2, x, y)


MODELS = {   # loss reading Variables, explicit loss, parameters, loss passing them
    "logreg": (logreg, logreg_explicit, [w, c], logreg_arguments),
    "mlp": (mlp, mlp_explicit, [W1, b1, W2, b2], mlp_arguments),
}


def candidates(model, batch):
    """{name: zero-argument call} for one model and batch size, checked to agree."""
    loss, explicit, params, passing = MODELS[model]
    x = rng.standard_normal((batch, N_IN))
    y = np.sign(rng.standard_normal(batch))
    values = [p.numpy() for p in params]
    baseline = sg.value_and_grad(explicit, wrt=tuple(range(len(params))))
    implicit = sg.implicit_value_and_gradients(loss)
    implicit_arguments = sg.implicit_value_and_gradients(passing)

    def tape_step():
        with sg.GradientTape() as tape:
            value = loss(x, y)
        return value, tape.gradient(value, params)

    calls = {
        "value_and_grad": lambda: baseline(*values, x, y),
        "implicit": lambda: implicit(x, y),
        "tape": tape_step,
        "arguments": lambda: implicit_arguments(x, y),
    }
    _check(calls)
    return calls


def _check(calls):
    value, grads = calls["value_and_grad"]()
    implicit_value, pairs = calls["implicit"]()
    tape_value, tape_grads = calls["tape"]()
    arguments_value, arguments_pairs = calls["arguments"]()
    for other, others in ((implicit_value, [g for g, _ in pairs]), (tape_value, tape_grads),
                          (arguments_value, [g for g, _ in arguments_pairs])):
        assert np.allclose(np.asarray(other), value)
        assert all(np.allclose(a, b) for a, b in zip(grads, others, strict=True))


def measure(call, number):
    """CPU seconds per call over ``number`` back-to-back calls, collector paused."""
    gc.disable()
    try:
        start = time.process_time()
        for _ in range(number):
            call()
        return (time.process_time() - start) / number
    finally:
        gc.enable()


def round_robin(calls, repeats, min_time):
    """{name: [seconds per call, one per round]}, the calls interleaved in every round
    (their order rotating from round to round)."""
    once = {name: measure(call, 20) for name, call in calls.items()}
    numbers = {name: max(1, math.ceil(min_time / max(t, 1e-7))) for name, t in once.items()}
    names = list(calls)
    samples = {name: [] for name in calls}
    for k in range(repeats):
        for name in names[k % len(names):] + names[:k % len(names)]:
            samples[name].append(measure(calls[name], numbers[name]))
    return samples


def row(model, batch, samples):
    """Median time per call of each candidate, and its overhead: the median over rounds
    of its time minus the baseline's in the same round (paired, so that a load that
    changes from round to round cancels)."""
    base = samples["value_and_grad"]
    cells = [f"{model:<7} {batch:>5} {statistics.median(base) * 1e6:>9.1f}"]
    for name in ("implicit", "tape", "arguments"):
        times = samples[name]
        extra = statistics.median(t - b for t, b in zip(times, base)) * 1e6
        ratio = statistics.median(t / b - 1 for t, b in zip(times, base)) * 100
        cells.append(f"{statistics.median(times) * 1e6:>9.1f} {extra:>+7.1f} {ratio:>+5.0f}%")
    return "  ".join(cells)


def forward_candidates(model, batch):
    """A decorated loss called outside any tape (it runs its generated forward), and the
    same body on the parameters' arrays (the NumPy primal)."""
    loss, explicit, params, _ = MODELS[model]
    x = rng.standard_normal((batch, N_IN))
    y = np.sign(rng.standard_normal(batch))
    values = [p.numpy() for p in params]
    calls = {"primal": lambda: explicit(*values, x, y), "decorated": lambda: loss(x, y)}
    assert np.isclose(np.asarray(calls["decorated"]()), calls["primal"]())
    return calls


def forward_row(model, batch, samples):
    base, times = samples["primal"], samples["decorated"]
    extra = statistics.median(t - b for t, b in zip(times, base)) * 1e6
    ratio = statistics.median(t / b - 1 for t, b in zip(times, base)) * 100
    return (f"{model:<7} {batch:>5} {statistics.median(base) * 1e6:>9.1f} "
            f"{statistics.median(times) * 1e6:>9.1f} {extra:>+7.1f} {ratio:>+5.0f}%")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21, help="rounds (median)")
    parser.add_argument("--min-time", type=float, default=0.02,
                        help="CPU seconds one measurement lasts at least")
    parser.add_argument("--quick", action="store_true", help="5 rounds of 0.01 s")
    options = parser.parse_args()
    repeats, min_time = (5, 0.01) if options.quick else (options.repeats, options.min_time)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        threadpool_limits = None
    limits = threadpool_limits(limits=1) if threadpool_limits else None
    print("BLAS:", "; ".join(threads.describe_blas()))
    print(f"medians of {repeats} rounds; times are CPU microseconds per call; "
          "overhead = candidate - value_and_grad in the same round")
    print(f"{'model':<7} {'batch':>5} {'v_and_g':>9}  {'implicit':>9} {'us':>7} {'%':>6}"
          f"  {'tape':>9} {'us':>7} {'%':>6}  {'arguments':>9} {'us':>7} {'%':>6}")
    for model in MODELS:
        for batch in (1, 32, 256):
            samples = round_robin(candidates(model, batch), repeats, min_time)
            print(row(model, batch, samples), flush=True)
    print("\na decorated loss called outside any tape, against the NumPy primal")
    print(f"{'model':<7} {'batch':>5} {'primal':>9} {'decorated':>9} {'us':>7} {'%':>6}")
    for model in MODELS:
        for batch in (1, 32, 256):
            samples = round_robin(forward_candidates(model, batch), repeats, min_time)
            print(forward_row(model, batch, samples), flush=True)
    if limits is not None:
        limits.restore_original_limits()


if __name__ == "__main__":
    main()
