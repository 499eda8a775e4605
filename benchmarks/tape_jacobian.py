"""``GradientTape.jacobian``: all the rows in one batched backward sweep of the tape
(``srcgrad.eager.jacobians``) against one backward sweep per row (the tape's
``_jacobian_per_row``, what it ran before), in one process, interleaved (CPU time,
medians, BLAS on one thread):

    python -m benchmarks.tape_jacobian [--repeats 5]

Two tapes: a tanh layer written operation by operation in the ``with`` block (each
NumPy call a node), and the same layer as one call of a compiled function (one node,
its generated backward). Each line gives both times and the ratio per-row / batched.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402

import numpy as np  # noqa: E402

import srcgrad as sg  # noqa: E402
from benchmarks import timing  # noqa: E402


@sg.differentiable
def layer(x, w, b):
    h = np.tanh(w @ x + b)
    return h * np.sum(x * x) + np.sin(x)


def tapes(n):
    """{name: (tape, target, sources)} for an ``n``-input layer."""
    rng = np.random.default_rng(0)
    x, w, b = (sg.constant(rng.standard_normal(s) * 0.3) for s in ((n,), (n, n), (n,)))
    out = {}
    with sg.GradientTape(persistent=True) as tape:
        tape.watch([x, w, b])
        h = np.tanh(np.matmul(w, x) + b)
        y = h * np.sum(x * x) + np.sin(x)
    out["operations"] = (tape, y, [x, b])
    with sg.GradientTape(persistent=True) as tape:
        tape.watch([x, w, b])
        y = layer(x, w, b)
    out["compiled call"] = (tape, y, [x, b])
    return out


def measure(n, repeats):
    """[(name, per-row seconds, batched seconds)], the two Jacobians checked equal."""
    lines = []
    for name, (tape, target, sources) in tapes(n).items():
        batched = tape.jacobian(target, sources)
        per_row = tape._jacobian_per_row(target, sources, False)
        for a, b in zip(batched, per_row):
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
        times = timing.round_robin(
            {"per_row": lambda t=tape, y=target, s=sources: t._jacobian_per_row(y, s, False),
             "batched": lambda t=tape, y=target, s=sources: t.jacobian(y, s)}, repeats, 0.05)
        lines.append((name, times["per_row"], times["batched"]))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=64, help="inputs (and outputs) of the layer")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    timing.use_cpu_time()
    print(f"GradientTape.jacobian, {args.n} x {args.n} (CPU ms, medians of {args.repeats})")
    print("| tape | one sweep per row | batched sweep | ratio |")
    print("|---|---|---|---|")
    for name, per_row, batched in measure(args.n, args.repeats):
        print(f"| {name} | {per_row * 1e3:.2f} | {batched * 1e3:.2f} | "
              f"{per_row / batched:.1f}x |")


if __name__ == "__main__":
    main()
