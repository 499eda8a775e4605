"""Gradient (or Jacobian) time / NumPy primal time of a ported objective at several sizes:

    python -m benchmarks.gradbench.measure lstm --sizes 128 256 512 1024 [--cpu-time]

One BLAS thread; srcgrad's derivative and the primal are interleaved in rounds and the
median taken (``benchmarks.timing``); the first derivative call (generation + compile) is
reported apart. With autograd installed, its figure is printed beside srcgrad's.
"""

from benchmarks import threads

threads.pin_single_thread()

import argparse  # noqa: E402
import importlib  # noqa: E402
import time  # noqa: E402

from benchmarks import timing  # noqa: E402


def _derivative(module, tool):
    if tool == "srcgrad":
        import srcgrad as sg
        return sg.grad(module.objective, wrt=module.WRT)
    import autograd
    import autograd.numpy as anp
    fresh = importlib.util.module_from_spec(importlib.util.find_spec(module.__name__))
    fresh.__spec__.loader.exec_module(fresh)
    fresh.np = anp
    return autograd.grad(fresh.objective, argnum=module.WRT)


def measure(module, size, repeats, min_time, peers):
    args = module.inputs(size)
    calls = {"primal": lambda: module.objective(*args)}
    first = {}
    for tool in ("srcgrad", *peers):
        derivative = _derivative(module, tool)
        start = time.perf_counter()
        derivative(*args)
        first[tool] = time.perf_counter() - start
        calls[tool] = (lambda d=derivative: d(*args))
    times = timing.round_robin(calls, repeats, min_time)
    return times, first


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gradbench.measure")
    parser.add_argument("objective")
    parser.add_argument("--sizes", type=int, nargs="+", required=True)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.05)
    parser.add_argument("--cpu-time", action="store_true")
    parser.add_argument("--autograd", action="store_true", help="also time autograd")
    options = parser.parse_args(argv)
    if options.cpu_time:
        timing.use_cpu_time()
    module = importlib.import_module(f"benchmarks.gradbench.{options.objective}")
    peers = ("autograd",) if options.autograd else ()
    print("| size | primal | srcgrad / primal | first call |"
          + "".join(f" {p} / primal |" for p in peers))
    print("|---|---|---|---|" + "---|" * len(peers))
    for size in options.sizes:
        times, first = measure(module, size, options.repeats, options.min_time, peers)
        primal = times["primal"]
        row = (f"| {size} | {primal * 1e3:.3g} ms | {times['srcgrad'] / primal:.2f} "
               f"| {first['srcgrad']:.2f} s |")
        row += "".join(f" {times[p] / primal:.2f} |" for p in peers)
        print(row, flush=True)


if __name__ == "__main__":
    main()
