"""Loop checkpointing on the rnn workload: gradient memory and time, stored vs recomputed.

``python -m benchmarks.checkpoint [full|long]`` writes the rnn's loop as a step function
run by ``sg.checkpoint_loop`` (binomial schedule: about log2(T) carries stored, the rest
recomputed) and compares its gradient with the plain one: peak memory (tracemalloc, above
the starting point), CPU time (median of 3), and the largest relative difference of the two
gradients. Issue target: at T=400 the checkpointed peak is at most 25% of the stored one.
"""

from __future__ import annotations

import sys
import time
import tracemalloc

import numpy as np

import srcgrad as sg
from benchmarks.workloads import rnn


def rnn_step(carry, x, args):
    h, loss = carry
    x_t, y_t = x
    Wx, Wh, b, Wy = args
    h = np.tanh(x_t @ Wx + h @ Wh + b)
    loss = loss + np.sum((h @ Wy - y_t) ** 2)
    return (h, loss)


def checkpointed_objective(Wx, Wh, b, Wy, xs, ys):
    h = np.zeros((xs.shape[1], Wh.shape[0]))
    carry = sg.checkpoint_loop(rnn_step, (h, 0.0), (xs, ys), (Wx, Wh, b, Wy))
    return carry[1] / xs.shape[0]


def measure(fn, args):
    fn(*args)                                   # compile first
    tracemalloc.start()
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    out = fn(*args)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    times = []
    for _ in range(3):
        start = time.process_time()
        fn(*args)
        times.append(time.process_time() - start)
    return out, peak - base, float(np.median(times))


def main(size="long"):
    args = rnn.inputs(size)
    stored, stored_peak, stored_time = measure(sg.grad(rnn.objective, rnn.WRT), args)
    ckpt, ckpt_peak, ckpt_time = measure(sg.grad(checkpointed_objective, rnn.WRT), args)
    difference = max(float(np.max(np.abs(a - b)) / np.max(np.abs(a)))
                     for a, b in zip(stored, ckpt))
    steps = args[4].shape[0]
    print(f"rnn, T={steps}: peak {stored_peak / 1e6:.1f} MB stored, "
          f"{ckpt_peak / 1e6:.1f} MB checkpointed (ratio {ckpt_peak / stored_peak:.3f}); "
          f"time {stored_time:.3f} s vs {ckpt_time:.3f} s (x{ckpt_time / stored_time:.2f}); "
          f"largest relative gradient difference {difference:.1e}")


if __name__ == "__main__":
    main(*sys.argv[1:])
