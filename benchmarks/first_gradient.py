"""Time to first gradient: parse + generate + compile + first call, in a fresh process.

``python -m benchmarks.first_gradient NAME`` prints one JSON object; ``measure_all``
starts one such process per workload. NumPy, srcgrad (with the compiler it loads on first
use) and the workload module are imported before the clock starts (their import time is
reported separately).
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import time


def _first_gradient(name):
    start = time.perf_counter()
    importlib.import_module("numpy")

    numpy_imported = time.perf_counter()
    import srcgrad as sg
    from benchmarks import workloads

    importlib.import_module("srcgrad.api.functional")   # sg.grad's modules load on first use

    workload = workloads.load(name)
    args = workload.inputs("full")
    imported = time.perf_counter()
    try:
        df = sg.grad(workload.objective, wrt=workload.WRT)
        compiled = time.perf_counter()
        df(*args)
    except Exception as error:
        return {"name": name, "error": f"{type(error).__name__}: {error}".splitlines()[0]}
    called = time.perf_counter()
    return {"name": name, "numpy_import": numpy_imported - start,
            "srcgrad_import": imported - numpy_imported, "compile": compiled - imported,
            "first_call": called - compiled, "first_gradient": called - imported}


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
    print(json.dumps(_first_gradient(sys.argv[1])))
