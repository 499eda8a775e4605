"""How much work generating a derivative does per line, counted (no timing): the tree
walks of the compiler's passes per generated line, their growth with the function's
length, and the garbage a compile leaves to the cycle collector.

A pass that walks each statement of both sweeps on its own (instead of reading the
``optimize.uses.UseCache`` the passes share) shows as more walks per generated line; a
pass that walks the whole function per statement, as growth faster than the length.
"""

import gc
import importlib.util

import pytest

import srcgrad as sg
from benchmarks import compile_scaling
from srcgrad import syntax
from srcgrad.optimize import uses

WALKERS = ((syntax, "walk"), (syntax, "names_in"), (syntax, "loaded_names"),
           (uses, "uses_of"))


def _function(tmp_path, shape, lines):
    make = {"distinct": compile_scaling.straight_line_source,
            "reassign": compile_scaling.reassign_source}[shape]
    path = tmp_path / f"{shape}_{lines}.py"
    path.write_text("import numpy as np\n\n\n" + make("f", lines) + "\n")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f


def _walks(monkeypatch, fn):
    """(tree walks while ``sg.grad`` generates ``fn``'s gradient, its lines)."""
    count = [0]

    def counted(walker):
        def walk(*args, **kwargs):
            count[0] += 1
            return walker(*args, **kwargs)
        return walk

    with monkeypatch.context() as patch:
        for owner, name in WALKERS:
            patch.setattr(owner, name, counted(getattr(owner, name)))
        df = sg.grad(fn, wrt=(0, 1))
    return count[0], len(sg.source(df).splitlines())


@pytest.mark.parametrize("shape", ["reassign", "distinct"])
def test_each_generated_line_is_walked_a_few_times(tmp_path, monkeypatch, shape):
    """Each statement's names are found about once for all the optimizer's passes (the
    shared use cache): a few walks per generated line, not one per pass (8.8 per line
    for the reassign shape before the passes shared it)."""
    walks, lines = _walks(monkeypatch, _function(tmp_path, shape, 100))
    assert walks <= 4 * lines, (walks, lines)


@pytest.mark.parametrize("shape", ["reassign", "distinct"])
def test_walks_grow_with_the_length(tmp_path, monkeypatch, shape):
    small, small_lines = _walks(monkeypatch, _function(tmp_path, shape, 60))
    large, large_lines = _walks(monkeypatch, _function(tmp_path, shape, 120))
    assert large / small <= 1.1 * large_lines / small_lines, (small, large)


def test_a_compile_leaves_no_cycles_to_collect(tmp_path):
    """The reverse mode's collaborators held the mode (a reference cycle): the whole
    function's tree, graph and facts waited for the cycle collector (100 objects per
    line). Now they are freed as the compile ends."""
    fn = _function(tmp_path, "reassign", 100)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        sg.grad(fn, wrt=(0, 1))
        unreachable = gc.collect()
    finally:
        if enabled:
            gc.enable()
    assert unreachable < 500, unreachable


def test_by_pass_table_accounts_for_the_whole_compile():
    """``--by-pass`` lists every stage and pass once with its own CPU time, and the own
    times add up to the compile's CPU time (each pass's time left out of its caller's)."""
    import os
    import pathlib
    import subprocess
    import sys

    root = pathlib.Path(compile_scaling.__file__).resolve().parents[1]
    env = dict(os.environ, SRCGRAD_CACHE="0",
               PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-m", "benchmarks.compile_scaling", "40",
                           "--shape", "reassign", "--by-pass"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    rows = [line.split(" | ") for line in done.stdout.splitlines()
            if line.startswith("| ") and not line.startswith("| stage or pass")]
    names = [row[0].lstrip("| ") for row in rows]
    expected = [stage for stage, _, _ in compile_scaling.STAGES + compile_scaling.PASSES]
    assert sorted(names) == sorted(expected + ["garbage collector", "other"])
    total = float(done.stdout.split(" CPU s")[0].rsplit(" ", 1)[1])
    assert abs(sum(float(row[1]) for row in rows) - total) < 0.002 * len(rows) + 1e-3
