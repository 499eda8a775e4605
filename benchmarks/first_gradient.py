"""Time to first gradient as a user sees it: a fresh process, BLAS pinned to one thread.

``python -m benchmarks.first_gradient NAME`` prints one JSON object; ``measure_all``
starts one such process per workload. The clock runs through

- ``numpy_import``: ``import numpy``;
- ``srcgrad_import``: ``import srcgrad`` and the first ``sg.grad`` attribute access, which
  loads the compiler (PEP 562);
- (the workload's module and inputs are made here, outside every figure);
- ``compile``: ``sg.grad(f, wrt)``, parse + generate + compile of the derivative;
- ``first_call``: the first call of the gradient (it may generate a specialized variant).

``first_gradient`` is compile + first call; ``import_and_first_gradient`` adds
``srcgrad_import``. Every figure is wall-clock seconds; ``cpu`` repeats them in CPU
seconds of the process (steadier on a shared machine).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from benchmarks import threads

STEPS = ("numpy_import", "srcgrad_import", None, "compile", "first_call")


def _first_gradient(name):
    marks = [(time.perf_counter(), time.process_time())]

    def mark():
        marks.append((time.perf_counter(), time.process_time()))

    import numpy  # noqa: F401

    mark()
    import srcgrad as sg

    grad = sg.grad
    mark()
    from benchmarks import workloads

    workload = workloads.load(name)
    args = workload.inputs("full")
    mark()
    try:
        df = grad(workload.objective, wrt=workload.WRT)
        mark()
        df(*args)
        mark()
    except Exception as error:
        return {"name": name, "error": f"{type(error).__name__}: {error}".splitlines()[0]}
    return {"name": name, **_figures(marks, 0), "cpu": _figures(marks, 1)}


def _figures(marks, clock):
    figures = {step: after[clock] - before[clock]
               for step, before, after in zip(STEPS, marks, marks[1:]) if step is not None}
    figures["first_gradient"] = figures["compile"] + figures["first_call"]
    figures["import_and_first_gradient"] = figures["srcgrad_import"] + figures["first_gradient"]
    return figures


def measure_all(names, env):
    results = []
    for name in names:
        done = subprocess.run([sys.executable, "-m", "benchmarks.first_gradient", name],
                              capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            results.append({"name": name, "error": done.stderr.strip().splitlines()[-1]})
        else:
            results.append(json.loads(done.stdout))
    return results


if __name__ == "__main__":
    threads.pin_single_thread()   # before NumPy is imported, as benchmarks.run does
    print(json.dumps(_first_gradient(sys.argv[1])))
