"""The ported ADBench / GradBench objectives side by side: srcgrad, ``jax.jit`` and
autograd on each objective's own derivative, in one process, one BLAS thread:

    python -m benchmarks.gradbench.table                   # every objective, Markdown
    python -m benchmarks.gradbench.table --update-readme   # ... and writes it into
                                                           # benchmarks/README.md
    python -m benchmarks.gradbench.table kmeans lse --repeats 3 --cpu-time

Figure = derivative time / NumPy primal time (medians of interleaved rounds,
``benchmarks.timing``). Each objective module holds the NumPy function as the suites
write it; autograd and JAX run a fresh copy of that module with ``np`` bound to
``autograd.numpy`` / ``jax.numpy`` (arguments that are not arrays are static for
``jax.jit``), so a port that writes into arrays fails there, as it would for a user (a module's
``NOT_RUN`` names a peer not run, and why).
Every peer's answer is compared with srcgrad's (``allclose``, rtol 1e-6); a
disagreement is marked. Making srcgrad's derivative and its first call (generation +
compile + run) and ``jax.jit``'s (tracing + XLA + run) are reported apart.
``--cpu-time`` measures the process's CPU time (``time.process_time``: XLA computes on
threads of its own, which the calling thread's CPU time would leave out), the figure to
take on a loaded machine.
"""

from benchmarks import threads

threads.pin_single_thread()

import argparse  # noqa: E402
import importlib  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks import timing  # noqa: E402
from benchmarks.gradbench import derivatives, readme  # noqa: E402

OBJECTIVES = ("gmm", "gmm_loop", "ba", "hand_like", "hand_complicated", "lstm", "lse",
              "kmeans", "ode", "llsq")
TOOLS = ("srcgrad", "jax.jit", "autograd")


def cases(module, size):
    """The argument tuples one derivative measurement runs over."""
    found = module.inputs(module.SIZES[size] if isinstance(size, str) else size)
    return found if module.DERIVATIVE == "jacobian" else [found]


def _agrees(got, want):
    got, want = derivatives.flat(got), derivatives.flat(want)
    return len(got) == len(want) and all(
        np.shape(g) == np.shape(w) and np.allclose(g, w, rtol=1e-6, atol=1e-9 * (
            1 + np.max(np.abs(w), initial=0.0))) for g, w in zip(got, want))


def measure(name, size="bench", repeats=5, min_time=0.05, tools=TOOLS):
    """{"primal": seconds, tool: seconds or a note, "first " + tool: seconds}."""
    module = importlib.import_module(f"benchmarks.gradbench.{name}")
    args = cases(module, size)
    primal = derivatives.function_of(module)
    calls = {"primal": lambda: [primal(*a) for a in args]}
    notes, reference = dict(getattr(module, "NOT_RUN", {})), None
    for tool in tools:
        if tool in notes:
            continue
        if not derivatives.installed(tool):
            notes[tool] = "not installed"
            continue
        try:
            start = time.perf_counter()
            derivative = derivatives.make(tool, module, args[0])
            first = [derivative(*a) for a in args]
            notes[f"first {tool}"] = time.perf_counter() - start
        except Exception as error:   # a peer that cannot run the port: say why
            notes[tool] = f"fails: {type(error).__name__}"
            continue
        if reference is None:
            reference = first
        elif not all(_agrees(g, w) for g, w in zip(first, reference)):
            notes[tool] = "mismatch"
            continue
        calls[tool] = (lambda d=derivative: [d(*a) for a in args])
    times = timing.round_robin(calls, repeats, min_time)
    return {**times, **notes}


def row(name, result):
    module = importlib.import_module(f"benchmarks.gradbench.{name}")
    primal = result["primal"]
    cells = [name, str(module.SIZES["bench"]), module.DERIVATIVE.replace("_", " "),
             f"{primal * 1e3:.3g} ms"]
    for tool in TOOLS:
        value = result.get(tool)
        cells.append(f"{value / primal:.2f}" if isinstance(value, float) else str(value))
    for tool in ("srcgrad", "jax.jit"):
        first = result.get(f"first {tool}")
        cells.append("-" if first is None else f"{first:.2f} s")
    return "| " + " | ".join(cells) + " |"


HEADER = ("| objective | size | derivative | NumPy primal | srcgrad | jax.jit | autograd "
          "| srcgrad first call | jax.jit first call |\n|---|---|---|---|---|---|---|---|---|")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gradbench.table")
    parser.add_argument("objectives", nargs="*", default=list(OBJECTIVES))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.05)
    parser.add_argument("--cpu-time", action="store_true")
    parser.add_argument("--update-readme", action="store_true")
    options = parser.parse_args(argv)
    options.load = readme.load_now()   # (a shared machine: reported with the table)
    if options.cpu_time:
        timing.CLOCK["now"] = time.process_time
    lines = [HEADER]
    print(HEADER, flush=True)
    for name in options.objectives:
        lines.append(row(name, measure(name, "bench", options.repeats, options.min_time)))
        print(lines[-1], flush=True)
    if options.update_readme:
        readme.write("\n".join(lines), options)


if __name__ == "__main__":
    main()
