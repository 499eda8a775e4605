"""``sg.grad`` of a closure built afresh each step, as a training loop that closes over
its batch does: the time per step (making the closure, ``sg.grad``, one call), against
calling one gradient function made once.

    python -m benchmarks.closure_per_step [--steps N]

Closures of one ``def`` share the generated code when their cells hold arrays of the
same dtype and shape (``srcgrad.compiler.code_cache``), so only the first step generates.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import srcgrad as sg


def make_loss(batch, targets, scale):
    def loss(w):
        return scale * np.sum((np.tanh(batch @ w) - targets) ** 2)
    return loss


def per_step(steps, rng):
    batches = [(rng.standard_normal((32, 8)), rng.standard_normal(32)) for _ in range(steps)]
    w = np.zeros(8)
    sg.grad(make_loss(*batches[0], 0.5))(w)   # the first step generates
    start = time.perf_counter()
    for batch, targets in batches:
        w = w - 0.01 * sg.grad(make_loss(batch, targets, 0.5))(w)
    return (time.perf_counter() - start) / steps


def reused(steps, rng):
    batch, targets = rng.standard_normal((32, 8)), rng.standard_normal(32)
    df = sg.grad(make_loss(batch, targets, 0.5))
    w = np.zeros(8)
    df(w)
    start = time.perf_counter()
    for _ in range(steps):
        w = w - 0.01 * df(w)
    return (time.perf_counter() - start) / steps


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    fresh = per_step(args.steps, rng)
    once = reused(args.steps, rng)
    print(f"sg.grad(new closure)(w) per step: {fresh * 1e3:.3f} ms")
    print(f"one gradient function, called:    {once * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
