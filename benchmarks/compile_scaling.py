"""How srcgrad's compile time grows with the length of straight-line code.

``python -m benchmarks.compile_scaling 1000`` writes a module holding a function of that
length, imports it as a user's module would be, and times ``sg.grad`` on it: parse,
normalize, analyze, generate, optimize and compile. It prints JSON: the wall and CPU
seconds, the CPU seconds of each stage (see ``STAGES``) and the generated lines.

Two shapes (``--shape``):

- ``distinct`` (default): every line one or two NumPy operations on the two previous
  values, each assigned to a new name (``v5 = np.sin(v4) * v3``);
- ``reassign``: every line ``s = s + np.sin(x * c) * k``, one name reassigned N times
  (the shape that had quadratic passes).

``python -m benchmarks.compile_scaling --shape reassign --sizes 500 1000 2000 5000``
runs each size in a fresh process (the disk cache off) and prints a table with the
growth ratio of each size to the previous one. ``python -m benchmarks.compile_scaling
2000 --shape reassign --by-pass`` prints each stage's and each pass's own CPU time (the
passes and analyses of ``PASSES`` wrapped too), largest first.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

LINE_TEMPLATES = (
    "v{i} = np.sin(v{a}) * v{b}",
    "v{i} = v{a} + 0.5 * v{b}",
    "v{i} = np.tanh(v{a} - v{b})",
    "v{i} = v{a} * v{b}",
)
SHAPES = ("distinct", "reassign")

# (stage, module, attribute): the CPU time inside each wrapped function, the time of
# the stages it calls left out (so the stages add up to the whole).
STAGES = (
    ("parse", "srcgrad.compiler.reverse", "parse_function"),
    ("fence", "srcgrad.compiler.reverse", "check_function"),
    ("normalize", "srcgrad.compiler.reverse", "normalize_function"),
    ("reverse mode", "srcgrad.modes.reverse", "ReverseMode.run"),
    ("assemble", "srcgrad.compiler.reverse", "_assemble"),
    ("optimize", "srcgrad.compiler.reverse_assembly", "optimize_sweeps"),
    ("print", "srcgrad.compiler.reverse", "emit.render_module"),
    ("compile + exec", "srcgrad.codegen.loader", "compile"),
    ("line notes", "srcgrad.compiler.reverse", "debug.annotate_lines"),
)
# ``--by-pass``: the passes and analyses inside the stages, each wrapped where its caller
# looks it up (a pass's time is left out of its stage's)
_PASS_OWNERS = {
    "srcgrad.compiler.reverse": ("ReverseMode.__init__", "_container_params", "_load",
                                 "syntax.names_in"),
    "srcgrad.modes.reverse": ("proven_arrays", "proven_numbers", "proven_instances",
                              "proven_namespaces", "proven_dicts", "analyze_activity",
                              "analyze_scalars", "defined_names", "CFG.__init__",
                              "SimpleAssignments.__init__"),
    "srcgrad.compiler.reverse_assembly": ("cancel_negations", "accumulate_in_place",
                                          "_residuals", "_gradients", "_private_saves",
                                          "free_after_last_read", "syntax.set_line"),
    "srcgrad.optimize": ("prune_saves", "propagate_copies", "eliminate_dead_code",
                         "fuse_product_reductions", "compact_spreads", "fold_negated_starts",
                         "fold_negated_scalings", "release_shapes", "save_shapes",
                         "reuse_dead_operands"),
    "srcgrad.optimize.uses": ("uses_of",),
}
PASSES = tuple((attribute, module, attribute) for module, attributes in _PASS_OWNERS.items()
               for attribute in attributes)


def straight_line_source(name, lines):
    body = ["    v0 = x * y", "    v1 = np.cos(x) + y"]
    for i in range(2, lines):
        template = LINE_TEMPLATES[i % len(LINE_TEMPLATES)]
        body.append("    " + template.format(i=i, a=i - 1, b=i - 2))
    body.append(f"    return v{lines - 1}")
    return "\n".join([f"def {name}(x, y):"] + body)


def reassign_source(name, lines):
    body = ["    s = 0.0"] + ["    s = s + np.sin(x * c) * k"] * lines + ["    return s"]
    return "\n".join([f"def {name}(x, c, k):"] + body)


_SOURCES = {"distinct": straight_line_source, "reassign": reassign_source}


def _load(directory, sizes, shape="distinct"):
    make = _SOURCES[shape]
    text = "import numpy as np\n\n\n" + "\n\n\n".join(
        make(f"straight_{n}", n) for n in (3,) + tuple(sizes)) + "\n"
    path = pathlib.Path(directory) / "straight_line_functions.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("straight_line_functions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _StageClock:
    """CPU seconds per stage, each stage's own time (its inner stages' left out)."""

    def __init__(self, stages=STAGES):
        self.stages = stages
        self.seconds = {stage: 0.0 for stage, _, _ in stages}
        self._stack = []   # [stage, start, time spent in inner stages]
        self._collecting = None

    def _garbage_collector(self, phase, info):
        """The collector's own time is a stage of its own (it interrupts any stage)."""
        if phase == "start":
            self._collecting = time.process_time()
        elif self._collecting is not None:
            spent = time.process_time() - self._collecting
            self.seconds["garbage collector"] += spent
            if self._stack:
                self._stack[-1][2] += spent
            self._collecting = None

    def wrap(self, stage, function):
        def timed(*args, **kwargs):
            self._stack.append([stage, time.process_time(), 0.0])
            try:
                return function(*args, **kwargs)
            finally:
                _, start, inner = self._stack.pop()
                spent = time.process_time() - start
                self.seconds[stage] += spent - inner
                if self._stack:
                    self._stack[-1][2] += spent
        return timed

    def install(self):
        self.seconds["garbage collector"] = 0.0
        gc.callbacks.append(self._garbage_collector)
        for stage, module_name, attribute in self.stages:
            owner = importlib.import_module(module_name)
            *path, last = attribute.split(".")
            for part in path:
                owner = getattr(owner, part)
            if last == "compile" and module_name.endswith("loader"):
                owner.compile = self.wrap(stage, compile)   # the builtin, as loader calls it
            else:
                setattr(owner, last, self.wrap(stage, getattr(owner, last)))


def _measure(lines, shape="distinct", stages=True, by_pass=False):
    import srcgrad as sg

    clock = _StageClock(STAGES + PASSES if by_pass else STAGES)
    if stages:
        clock.install()
    with tempfile.TemporaryDirectory() as directory:
        module = _load(directory, [lines], shape)
        sg.grad(module.straight_3, wrt=(0, 1))      # warm the compiler's own imports
        clock.seconds = dict.fromkeys(clock.seconds, 0.0)
        start, cpu = time.perf_counter(), time.process_time()
        df = sg.grad(getattr(module, f"straight_{lines}"), wrt=(0, 1))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        result = {"lines": lines, "shape": shape, "seconds": seconds, "cpu_seconds": cpu,
                  "generated_lines": len(sg.source(df).splitlines()),
                  "module_lines": len(df.unit.module.source.splitlines())}
        if stages:
            result["stages"] = dict(clock.seconds, other=cpu - sum(clock.seconds.values()))
        return result


def measure(sizes, env, timeout, shape="distinct"):
    """One fresh process per size; a size that takes longer than ``timeout`` is reported
    as such (and larger sizes are not tried)."""
    results = []
    for lines in sizes:
        command = [sys.executable, "-m", "benchmarks.compile_scaling", str(lines),
                   "--shape", shape]
        try:
            done = subprocess.run(command, capture_output=True, text=True, env=env,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            results.append({"lines": lines, "timeout": timeout})
            break
        if done.returncode != 0:
            results.append({"lines": lines, "error": done.stderr.strip().splitlines()[-1]})
        else:
            results.append(json.loads(done.stdout))
    return results


def stage_table(rows):
    """Markdown: CPU seconds per stage and in all for each size, and the growth of each
    size's CPU time over the previous size's (with the ratio of the sizes)."""
    measured = [row for row in rows if "stages" in row]
    if not measured:
        return [f"no size measured: {rows}"]
    stages = list(measured[0]["stages"])
    lines = ["| stage | " + " | ".join(f"{row['lines']} lines" for row in measured) + " |",
             "|---|" + "---|" * len(measured)]
    for stage in stages:
        lines.append(f"| {stage} | " + " | ".join(
            f"{row['stages'][stage]:.3f}" for row in measured) + " |")
    for label, key in (("CPU, all", "cpu_seconds"), ("wall, all", "seconds")):
        lines.append(f"| **{label}** | " + " | ".join(
            f"**{row[key]:.3f}**" for row in measured) + " |")
    lines.append("| generated lines (grad / module) | " + " | ".join(
        f"{row['generated_lines']} / {row['module_lines']}" for row in measured) + " |")
    growth = ["-"] + [
        f"{now['cpu_seconds'] / before['cpu_seconds']:.2f}x for "
        f"{now['lines'] / before['lines']:.2g}x"
        for before, now in zip(measured, measured[1:])]
    lines.append("| CPU growth over the previous size | " + " | ".join(growth) + " |")
    return lines + [f"\nnot measured: {row}" for row in rows if "stages" not in row]


def pass_table(result):
    """Markdown: each stage's and pass's own CPU seconds (``--by-pass``) and its share of
    the whole, largest first."""
    total = result["cpu_seconds"]
    lines = [f"{result['shape']}, {result['lines']} statements: {total:.3f} CPU s, "
             f"{result['generated_lines']} generated lines\n",
             "| stage or pass (own time) | CPU s | share |", "|---|---|---|"]
    for name, seconds in sorted(result["stages"].items(), key=lambda item: -item[1]):
        lines.append(f"| {name} | {seconds:.3f} | {100 * seconds / total:.1f}% |")
    return lines


def _arguments():
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compile_scaling",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("lines", nargs="?", type=int,
                        help="measure one size in this process and print JSON")
    parser.add_argument("--shape", choices=SHAPES, default="distinct")
    parser.add_argument("--sizes", type=int, nargs="+",
                        help="measure these sizes, one fresh process each, as a table")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--by-pass", action="store_true",
                        help="with one size: each pass's own CPU time, as a table")
    return parser.parse_args()


if __name__ == "__main__":
    options = _arguments()
    if options.sizes:
        environment = dict(os.environ, SRCGRAD_CACHE="0")
        table = stage_table(measure(options.sizes, environment, options.timeout,
                                    options.shape))
        print(f"{options.shape}: CPU seconds of sg.grad by stage\n")
        print("\n".join(table))
    elif options.by_pass:
        print("\n".join(pass_table(_measure(options.lines, options.shape, by_pass=True))))
    else:
        print(json.dumps(_measure(options.lines, options.shape)))
