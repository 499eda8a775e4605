"""Sparse Jacobians of the 2-D Brusselator, side by side in one process:
``sg.jacobian(f, sparse=True)``, the dense ``sg.jacobian`` and JAX's dense
``jax.jit(jax.jacfwd(f))``, for about 10^3, 10^4 and 10^5 unknowns.

    python -m benchmarks.sparse_jacobian                    # prints the Markdown table
    python -m benchmarks.sparse_jacobian --update-readme    # ... and writes it into README.md
    python -m benchmarks.sparse_jacobian --grids 22 71      # some grids only

Times are medians of interleaved rounds (``benchmarks.timing``) of CPU time with every
math library on one thread, reported as ratios to one evaluation of the NumPy residual.
The sparse Jacobian's first call (finding the pattern, colouring it, generating the code)
is reported apart. Peak memory: tracemalloc's peak during one call for the NumPy code
(residual, both srcgrad Jacobians); XLA's buffers for JAX (``memory_analysis`` of the
compiled function: temporaries + output). A dense Jacobian runs only where its matrix
takes at most ``--dense-max-gb``. The sparse and dense Jacobians are compared (equal up
to rounding); JAX's against srcgrad's dense one.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pathlib
import platform
import subprocess
import sys
import time
import tracemalloc

import numpy as np

README = pathlib.Path(__file__).with_name("README.md")
START, END = "<!-- sparse:start -->", "<!-- sparse:end -->"
GRIDS = (22, 71, 224)   # 2 n^2 unknowns: 968, 10,082, 100,352


def brusselator(t, y, n):
    """The 2-D Brusselator on an n x n periodic grid of the unit square (Hairer and
    Wanner, Solving ODEs II, IV.10): ``y`` holds u then v, each n x n in C order."""
    alpha = 0.1 * n * n          # 0.1 / dx^2
    u = y[:n * n].reshape(n, n)
    v = y[n * n:].reshape(n, n)
    lap_u = np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1) - 4 * u
    lap_v = np.roll(v, 1, 0) + np.roll(v, -1, 0) + np.roll(v, 1, 1) + np.roll(v, -1, 1) - 4 * v
    uuv = u * u * v
    du = 1.0 + uuv - 4.4 * u + alpha * lap_u
    dv = 3.4 * u - uuv + alpha * lap_v
    return np.concatenate([du.ravel(), dv.ravel()])


def initial_state(n):
    x = np.arange(n) / n
    u = 22.0 * x[None, :] * (1.0 - x[None, :]) ** 1.5 * np.ones((n, 1))
    v = 27.0 * x[:, None] * (1.0 - x[:, None]) ** 1.5 * np.ones((1, n))
    return np.concatenate([u.ravel(), v.ravel()])


def _peak_bytes(call):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - base


def _jax_dense(n, y):
    import jax
    import jax.numpy as jnp

    from benchmarks import tools

    jax.config.update("jax_enable_x64", True)
    module = tools.with_numpy_module(importlib.import_module("benchmarks.sparse_jacobian"),
                                     jnp)
    jitted = jax.jit(jax.jacfwd(module.brusselator, argnums=1), static_argnums=2)
    start = time.process_time()
    compiled = jitted.lower(0.0, jnp.asarray(y), n).compile()
    seconds = time.process_time() - start
    analysis = compiled.memory_analysis()
    memory = analysis.temp_size_in_bytes + analysis.output_size_in_bytes
    y_jax = jnp.asarray(y)

    def call():
        return compiled(0.0, y_jax).block_until_ready()
    return call, seconds, memory


def measure(n, repeats, min_seconds, dense_max_gb):
    import srcgrad as sg
    from benchmarks import timing

    y = initial_state(n) + 0.01 * np.random.default_rng(n).standard_normal(2 * n * n)
    unknowns = y.size
    row = {"grid": n, "unknowns": unknowns}
    sparse = sg.jacobian(brusselator, 1, sparse=True)
    start = time.process_time()
    first = sparse(0.0, y, n)
    row["first_call"] = time.process_time() - start
    row["nnz"] = int(first.nnz)
    from srcgrad.api import sparse as api_sparse
    row["colours"] = _colours(api_sparse, sparse, y, n)
    calls = {"residual": lambda: brusselator(0.0, y, n), "sparse": lambda: sparse(0.0, y, n)}
    fits = unknowns * unknowns * 8 <= dense_max_gb * 2 ** 30
    if fits:
        dense = sg.jacobian(brusselator, 1)
        reference = dense(0.0, y, n)
        scale = np.max(np.abs(reference))
        row["sparse_error"] = float(np.max(np.abs(first.toarray() - reference)) / scale)
        calls["dense"] = lambda: dense(0.0, y, n)
        try:
            jax_call, row["jax_compile"], row["jax_memory"] = _jax_dense(n, y)
            row["jax_error"] = float(np.max(np.abs(np.asarray(jax_call()) - reference)) / scale)
            calls["jax"] = jax_call
        except Exception as error:   # reported, not fatal
            row["jax_failure"] = f"{type(error).__name__}: {error}".splitlines()[0][:120]
        del reference
    seconds = timing.round_robin(calls, repeats, min_seconds)
    row.update({f"{name}_seconds": value for name, value in seconds.items()})
    for name in ("residual", "sparse", "dense"):
        if name in calls:
            row[f"{name}_memory"] = _peak_bytes(calls[name])
    return row


def _colours(api_sparse, jacobian_fn, y, n):
    """The number of colours of the kept plan (read from the function's closure)."""
    fn = getattr(jacobian_fn, "__srcgrad_function__", jacobian_fn)
    for cell in fn.__closure__ or ():
        plans = cell.cell_contents
        if isinstance(plans, api_sparse._Plans):
            plan, _ = plans.plan((0.0, y, n), {})
            return f"{plan.compression.count} ({plan.compression.kind})"
    return "?"


def _mib(value):
    return "-" if value is None else f"{value / 2 ** 20:.1f} MiB"


def _ratio(row, name):
    seconds = row.get(f"{name}_seconds")
    return "-" if seconds is None else f"{seconds / row['residual_seconds']:.1f}"


def table(rows, command):
    lines = ["| unknowns | colours | residual | first call (pattern + colouring + code) "
             "| sparse | dense sg.jacobian | jax.jit(jax.jacfwd) | sparse vs jax | "
             "peak memory: residual / sparse / dense / jax |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        jax = row.get("jax_seconds")
        versus = "-" if jax is None else f"{jax / row['sparse_seconds']:.0f}x faster"
        dense_note = "" if "dense_seconds" in row else " (matrix does not fit)"
        lines.append(
            f"| {row['unknowns']:,} | {row['colours']} | {row['residual_seconds'] * 1e3:.3f} ms "
            f"| {row['first_call']:.2f} s | {_ratio(row, 'sparse')}x "
            f"| {_ratio(row, 'dense')}x{dense_note} | {_ratio(row, 'jax')}x "
            f"{row.get('jax_failure', '')}| {versus} | "
            f"{_mib(row.get('residual_memory'))} / {_mib(row.get('sparse_memory'))} / "
            f"{_mib(row.get('dense_memory'))} / {_mib(row.get('jax_memory'))} |")
    errors = [f"{row['unknowns']:,}: sparse {row['sparse_error']:.1e}"
              + (f", jax {row['jax_error']:.1e}" if "jax_error" in row else "")
              for row in rows if "sparse_error" in row]
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=README.parent, check=False).stdout.strip()
    return "\n".join([
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on "
        f"{platform.machine()} ({platform.processor() or 'cpu'}), srcgrad at {commit}, "
        f"Python {platform.python_version()}, NumPy {np.__version__}; command: "
        f"`{command}`; load average {load}. Times are ratios to one NumPy residual "
        f"evaluation (CPU time, medians, one thread).", "", *lines, "",
        "Largest difference from srcgrad's dense Jacobian, relative to its largest entry: "
        + ("; ".join(errors) or "-") + "."])


def update_readme(block):
    text = README.read_text()
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    README.write_text(f"{before}{START}\n{block}\n{END}{after}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, nargs="+", default=list(GRIDS))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--min-seconds", type=float, default=0.05)
    parser.add_argument("--dense-max-gb", type=float, default=1.0)
    parser.add_argument("--update-readme", action="store_true")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    options = parser.parse_args(argv)
    from benchmarks import threads, timing
    threads.pin_single_thread()
    timing.CLOCK["now"] = time.process_time
    rows = [measure(n, options.repeats, options.min_seconds, options.dense_max_gb)
            for n in options.grids]
    command = "python -m benchmarks.sparse_jacobian " + " ".join(
        argv if argv is not None else sys.argv[1:])
    block = table(rows, command.strip())
    print(block)
    if options.json:
        print(json.dumps(rows, indent=1))
    if options.update_readme:
        update_readme(block)


if __name__ == "__main__":
    main()
