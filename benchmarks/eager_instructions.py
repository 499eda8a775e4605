"""The TF-eager APIs' overhead over ``sg.value_and_grad`` in instructions, not seconds.

The same three candidates as ``benchmarks.eager_overhead`` (one model, one batch size),
each run in its own process under ``valgrind --tool=callgrind``, which counts the
instructions executed: a figure that does not move with the load of a shared machine.
Each candidate runs 1000 and then 3000 calls (collector paused, one BLAS thread, hash
seed, address-space layout and disk cache fixed), and the difference / 2000 is its
count per call, free of start-up costs. Instructions are not time: the interpreter's
glue code runs at a lower rate than NumPy's loops, so a share of instructions
understates the share of time. Run:
``python -m benchmarks.eager_instructions [--model logreg] [--batch 32]``
(needs valgrind and setarch; a few minutes).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys

CANDIDATES = ("value_and_grad", "implicit", "tape")


def child(model, batch, name, number):
    from benchmarks import eager_overhead

    call = eager_overhead.candidates(model, batch)[name]
    gc.collect()
    gc.disable()
    for _ in range(number):
        call()


def count(model, batch, name, number):
    """Instructions callgrind counts for one child process making ``number`` calls."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               SRCGRAD_CACHE="0", PYTHONHASHSEED="0")
    command = ["setarch", "-R", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, "-m", "benchmarks.eager_instructions", "--child", name,
               "--model", model, "--batch", str(batch), "--number", str(number)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    refs = re.search(r"refs:\s+([\d,]+)", done.stderr)
    return int(refs.group(1).replace(",", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="logreg")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--child", choices=CANDIDATES, help=argparse.SUPPRESS)
    parser.add_argument("--number", type=int, default=0, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        child(options.model, options.batch, options.child, options.number)
        return
    per_call = {}
    for name in CANDIDATES:
        low = count(options.model, options.batch, name, 1000)
        high = count(options.model, options.batch, name, 3000)
        per_call[name] = (high - low) / 2000
    base = per_call["value_and_grad"]
    print(f"{options.model}, batch {options.batch}: instructions per call (callgrind)")
    for name, n in per_call.items():
        print(f"{name:<15} {n:>10,.0f}  {n - base:>+9,.0f}  {100 * (n / base - 1):>+5.1f}%")


if __name__ == "__main__":
    main()
