"""Peak memory of one rnn gradient (tracemalloc), at 50 and 400 steps.

``python -m benchmarks.memory`` prints JSON: for each length, the peak bytes that
tracemalloc saw above the starting point during one call of the NumPy primal, of srcgrad's
gradient and of autograd's (when installed). NumPy reports its array buffers to
tracemalloc, so array memory is counted.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc

LENGTHS = {"full": 50, "long": 400}


def _peak(call):
    call()                          # warm: compile and cache before measuring
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - base


def _measure():
    import srcgrad as sg
    from benchmarks import tools
    from benchmarks.workloads import rnn

    df = sg.grad(rnn.objective, wrt=rnn.WRT)
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        autograd_grad = None
    else:
        autograd_grad = autograd.grad(tools.with_numpy_module(rnn, anp).objective,
                                      argnum=rnn.WRT)
    results = []
    for size, steps in LENGTHS.items():
        args = rnn.inputs(size)
        row = {"steps": steps, "numpy primal": _peak(lambda a=args: rnn.objective(*a))}
        try:
            row["srcgrad"] = _peak(lambda a=args: df(*a))
        except Exception as error:
            row["srcgrad"] = f"fails: {type(error).__name__}: {error}".splitlines()[0]
        if autograd_grad is not None:
            row["autograd"] = _peak(lambda a=args: autograd_grad(*a))
        results.append(row)
    return results


def measure(env):
    done = subprocess.run([sys.executable, "-m", "benchmarks.memory"],
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1]}
    return {"rows": json.loads(done.stdout)}


if __name__ == "__main__":
    print(json.dumps(_measure()))
