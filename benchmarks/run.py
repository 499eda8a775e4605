"""Run the benchmark suite: ``python -m benchmarks.run`` (see benchmarks/README.md).

Thread counts are pinned before NumPy or any peer is imported, so everything that needs
them is imported inside ``main``.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import os
import pathlib
import platform
import subprocess
import sys

from benchmarks import threads

README = pathlib.Path(__file__).with_name("README.md")
COMPILE_SIZES = (100, 1000, 5000)
REASSIGN_SIZES = (500, 1000, 2000, 5000)   # ``s = s + np.sin(x * c) * k``, N times
PACKAGES = ("numpy", "gast", "autograd", "jax", "jaxlib", "torch", "tangent-ad",
            "threadpoolctl")


def _arguments(names):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument("workloads", nargs="*", default=list(names),
                        help=f"workloads to run (default: all of {', '.join(names)})")
    parser.add_argument("--repeats", type=int, default=7, help="rounds per tool (median)")
    parser.add_argument("--min-time", type=float, default=0.05,
                        help="seconds one measurement lasts at least")
    parser.add_argument("--compile-timeout", type=float, default=300,
                        help="seconds before a compile-scaling size is given up")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time the ratio table in CPU time of the process "
                             "(steadier on a loaded machine; BLAS runs single-threaded)")
    parser.add_argument("--skip-extras", action="store_true",
                        help="only the ratio table (no first-gradient, compile, memory)")
    parser.add_argument("--update-readme", action="store_true",
                        help=f"write the results into {README}")
    return parser.parse_args()


def _cpu_model():
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _versions():
    found = []
    for package in PACKAGES:
        try:
            found.append(f"{package} {importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            found.append(f"{package} not installed")
    return found


def _commit():
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, cwd=README.parent, check=False)
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "srcgrad"],
                           capture_output=True, text=True, cwd=README.parent, check=False)
    commit = done.stdout.strip() or "unknown"
    return commit + (" (srcgrad/ has uncommitted changes)" if dirty.stdout.strip() else "")


def environment_lines(dropped, options):
    return [
        f"- date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"- machine: {_cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}",
        f"- Python {platform.python_version()}; srcgrad at commit {_commit()}",
        f"- {'; '.join(_versions())}",
        "- BLAS: " + "; ".join(threads.describe_blas())
        + (f" (dropped for this run: {', '.join(dropped)})" if dropped else ""),
        f"- medians of {options.repeats} interleaved rounds, each measurement >= "
        f"{options.min_time:g} s, float64"
        + (", CPU time of the process" if options.cpu_time else ", wall time"),
        f"- command: `python -m benchmarks.run {' '.join(sys.argv[1:])}`",
    ]


def main():
    dropped = threads.pin_single_thread()
    from benchmarks import compile_scaling, first_gradient, memory, report, suite, tools, workloads

    options = _arguments(workloads.NAMES)
    if options.cpu_time:
        from benchmarks import timing

        timing.use_cpu_time()
    results = suite.run(options.workloads, options.repeats, options.min_time)
    tool_names = ["srcgrad"] + [peer.name for peer in tools.PEERS]
    sections = ["### Environment", "", *environment_lines(dropped, options), "",
                "### Gradient time / NumPy primal time (lower is better)", "",
                *report.ratio_table(results, tool_names), "",
                "### JAX jit compile time (paid once, not in the ratio)", "",
                *report.setup_table(results), ""]
    if not options.skip_extras:
        env = dict(threads.child_environment(), SRCGRAD_CACHE="0")   # generate, not load
        print("time to first gradient ...")
        rows = first_gradient.measure_all(options.workloads, env)
        print("compile scaling ...")
        scaling = compile_scaling.measure(COMPILE_SIZES, env, options.compile_timeout)
        reassigned = compile_scaling.measure(REASSIGN_SIZES, env, options.compile_timeout,
                                             shape="reassign")
        print("rnn memory ...")
        peaks = memory.measure(env)
        sections += ["### Time to first gradient (fresh process per workload)", "",
                     *report.first_gradient_table(rows), "",
                     "### Compile time of straight-line functions", "",
                     *report.compile_table(scaling), "",
                     "### Compile time of one name reassigned N times, CPU seconds by stage",
                     "", *compile_scaling.stage_table(reassigned), "",
                     "### Peak memory of one rnn gradient (tracemalloc)", "",
                     *report.memory_table(peaks), ""]
    sections += ["### Failures and mismatches", "", *report.failures(results)]
    block = "\n".join(sections)
    print(block)
    if options.update_readme:
        report.update_readme(README, block)


if __name__ == "__main__":
    main()
