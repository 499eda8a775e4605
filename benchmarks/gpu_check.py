"""The GPU check: srcgrad's gradients of the array API workloads on a GPU's arrays
(PyTorch CUDA tensors, CuPy arrays), against float64 CPU results and ``torch.autograd``.

    python -m benchmarks.gpu_check                  # the GPU where there is one, else CPU torch
    python -m benchmarks.gpu_check --install        # first pip-installs what is missing
    python -m benchmarks.gpu_check --size full      # the workloads' CPU sizes (a quick run)
    python -m benchmarks.gpu_check --update-readme  # writes the table into benchmarks/README.md

For each workload (``mlp``: 4096-wide layers, batch 1024; ``rnn``: 100 steps of a
1024-wide cell, batch 256, at ``--size gpu``) and each library with arrays on the device:

- the float64 gradient of the workload's ``xp_objective`` computed on the device by
  ``sg.grad``, against ``torch.autograd``'s float64 gradient of the same function on the
  CPU (an independent AD): the largest error relative to the reference's largest entry;
- float32 times, medians of synchronised calls: the primal, ``sg.grad`` and, for torch,
  ``torch.autograd`` of the same function on the same device; printed as gradient/primal
  ratios and srcgrad's time over torch.autograd's.

``--install`` asks pip for ``cupy-cuda12x`` and the CUDA build of ``torch`` only where they
do not import (a machine without network access needs them present already).
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import statistics
import subprocess
import sys
import time

import numpy as np

README = pathlib.Path(__file__).with_name("README.md")
START, END = "<!-- gpu:start -->", "<!-- gpu:end -->"
SIZES = {
    "gpu": {"mlp": (4096, 4096, 10, 1024), "rnn": (100, 256, 1024, 1024, 10)},
    "full": {},    # the workloads' own sizes
    "tiny": {},
}


def install_missing():
    """pip-install CuPy and PyTorch's CUDA build where they do not import."""
    wanted = {"torch": ["torch", "--index-url", "https://download.pytorch.org/whl/cu124"],
              "cupy": ["cupy-cuda12x"]}
    for module, spec in wanted.items():
        try:
            importlib.import_module(module)
        except ImportError:
            subprocess.run([sys.executable, "-m", "pip", "install", *spec], check=False)


def devices():
    """[(library, device name, to_device, synchronize)] for each place arrays can live."""
    found = []
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and torch.cuda.is_available():
        found.append(("torch", torch.cuda.get_device_name(0),
                      lambda a, dt: torch.asarray(a.astype(dt), device="cuda"),
                      torch.cuda.synchronize))
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            found.append(("cupy", "cuda:0", lambda a, dt: cupy.asarray(a.astype(dt)),
                          cupy.cuda.Device().synchronize))
    except Exception:   # not installed, or no driver
        pass
    if not found and torch is not None:
        torch.set_num_threads(1)   # one core each, as the CPU benchmarks measure
        found.append(("torch", "cpu", lambda a, dt: torch.asarray(a.astype(dt)),
                      lambda: None))
    return found


def workload_inputs(module, size):
    """The workload's NumPy inputs at ``size`` (``gpu`` sizes are set here)."""
    shape = SIZES[size].get(module.__name__.rsplit(".", 1)[1])
    if shape is None:
        return module.inputs(size)
    module.SIZES.setdefault("gpu", shape)
    return module.inputs("gpu")


def torch_gradient(f, wrt):
    import torch

    def grad(*args):
        leaves = [a.detach().requires_grad_(True) if i in wrt else a
                  for i, a in enumerate(args)]
        return torch.autograd.grad(f(*leaves), [leaves[i] for i in wrt])
    return grad


def median_seconds(calls, synchronize, repeats):
    """{name: median seconds} of synchronised calls, interleaved round-robin (a load that
    changes during the run falls on every call alike)."""
    samples = {name: [] for name in calls}
    for call in calls.values():
        call()
    synchronize()
    for _ in range(repeats):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            synchronize()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in samples.items()}


def to_numpy(a):
    if hasattr(a, "get"):           # CuPy
        return a.get()
    if hasattr(a, "detach"):        # torch
        return a.detach().cpu().numpy()
    return np.asarray(a)


def check(name, size, library, place, to_device, synchronize, repeats):
    """One row of the table: errors at float64, times at float32."""
    import torch

    import srcgrad as sg

    module = importlib.import_module(f"benchmarks.workloads.{name}")
    f, wrt = module.xp_objective, tuple(module.WRT)
    inputs = workload_inputs(module, size)
    reference = torch_gradient(f, wrt)(*[torch.asarray(a) for a in inputs])
    ours = sg.grad(f, wrt=wrt)
    got = ours(*[to_device(a, np.float64) for a in inputs])
    error = max(np.max(np.abs(to_numpy(g) - r.numpy())) / max(np.max(np.abs(r.numpy())), 1e-300)
                for g, r in zip(got, reference))
    args = [to_device(a, np.float32) for a in inputs]
    calls = {"primal": lambda: f(*args), "srcgrad": lambda: ours(*args)}
    if library == "torch":
        native = torch_gradient(f, wrt)
        calls["autograd"] = lambda: native(*args)
    times = median_seconds(calls, synchronize, repeats)
    row = {"workload": name, "library": library, "device": place, "error": error, **times}
    print(format_row(row), flush=True)
    return row


def format_row(row):
    primal = row["primal"]
    autograd = row.get("autograd")
    cells = [row["workload"], row["library"], row["device"], f"{row['error']:.1e}",
             f"{primal * 1e3:.2f}", f"{row['srcgrad'] / primal:.2f}",
             f"{autograd / primal:.2f}" if autograd else "-",
             f"{row['srcgrad'] / autograd:.2f}" if autograd else "-"]
    return "| " + " | ".join(cells) + " |"


HEADER = ["| workload | library | device | float64 error | primal ms (float32) | "
          "sg.grad / primal | torch.autograd / primal | sg.grad / torch.autograd |",
          "|---|---|---|---|---|---|---|---|"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--install", action="store_true")
    parser.add_argument("--size", choices=tuple(SIZES), default=None,
                        help="gpu sizes where there is a GPU, else full (the CPU sizes)")
    parser.add_argument("--workloads", nargs="*", default=["mlp", "rnn"])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--update-readme", action="store_true")
    options = parser.parse_args(argv)
    if options.install:
        install_missing()
    places = devices()
    if not places:
        sys.exit("no torch and no CuPy: nothing to run the workloads on")
    on_gpu = any(place != "cpu" for _, place, _, _ in places)
    size = options.size or ("gpu" if on_gpu else "full")
    where = ", ".join(f"{library} on {place}" for library, place, _, _ in places)
    print(f"sizes: {size}; devices: {where}")
    print("\n".join(HEADER))
    rows = [check(name, size, library, place, to_device, synchronize, options.repeats)
            for name in options.workloads
            for library, place, to_device, synchronize in places]
    worst = max(row["error"] for row in rows)
    print(f"largest float64 error against torch.autograd on the CPU: {worst:.1e}")
    if worst > 1e-8:
        sys.exit("a gradient differs from the reference")
    if options.update_readme:
        block = "\n".join([f"`python -m benchmarks.gpu_check` (sizes: {size})", "",
                           *HEADER, *map(format_row, rows)])
        text = README.read_text()
        before, rest = text.split(START, 1)
        _, after = rest.split(END, 1)
        README.write_text(f"{before}{START}\n{block}\n{END}{after}")


if __name__ == "__main__":
    main()
