"""The main comparison: every tool on every workload, interleaved, in one process."""

from __future__ import annotations

import dataclasses

import numpy as np

from benchmarks import timing, tools, workloads


@dataclasses.dataclass
class Cell:
    """One tool on one workload."""

    status: str = "ok"            # "ok", "not installed" or "fails: ..."
    seconds: float | None = None  # median per gradient call
    ratio: float | None = None    # seconds / NumPy primal seconds
    setup_seconds: float | None = None
    check: str = ""               # "" when the gradient agrees with the reference
    error: str = ""               # the full error text of a failure


@dataclasses.dataclass
class WorkloadResult:
    name: str
    target: float
    primal_seconds: float
    reference: str
    cells: dict


def _failure(error):
    """(cell text, full text): the cell names the error and its first informative line."""
    text = f"{type(error).__name__}: {error}".strip()
    informative = [line.strip() for line in str(error).splitlines()
                   if line.strip().strip("=-") and not line.strip().endswith("Error")]
    summary = informative[0] if informative else ""
    if len(summary) > 120:
        summary = summary[:117] + "..."
    return f"fails: {type(error).__name__}: {summary}".rstrip(": "), text


def _prepare_all(workload, args, all_tools):
    prepared, cells, results = {}, {}, {}
    for tool in all_tools:
        cell = cells[tool.name] = Cell()
        try:
            ready = tool.prepare(workload, args)
            first = ready.call()
        except tools.Unavailable as reason:
            cell.status = str(reason)
            continue
        except Exception as error:  # a tool that cannot run this workload is a result
            cell.status, cell.error = _failure(error)
            continue
        cell.setup_seconds = ready.setup_seconds
        prepared[tool.name] = ready
        if ready.to_numpy is not None:
            results[tool.name] = ready.to_numpy(first)
    return prepared, cells, results


def _compare(grads, reference):
    if len(grads) != len(reference):
        return f"returned {len(grads)} gradients, reference has {len(reference)}"
    for index, (mine, theirs) in enumerate(zip(grads, reference)):
        if mine.shape != theirs.shape:
            return f"gradient {index}: shape {mine.shape} vs {theirs.shape}"
        if not np.allclose(mine, theirs, rtol=1e-6, atol=1e-9):
            worst = np.max(np.abs(mine - theirs))
            return f"gradient {index}: max |difference| {worst:.3g}"
    return ""


def run_workload(workload, all_tools, repeats, min_seconds, log=print):
    args = workload.inputs("full")
    prepared, cells, results = _prepare_all(workload, args, all_tools)
    reference = next((name for name in ("srcgrad", "autograd", "jax", "torch")
                      if name in results), None)
    for name, grads in results.items():
        if name != reference:
            cells[name].check = _compare(grads, results[reference])
            if cells[name].check:
                log(f"  MISMATCH {workload.NAME}: {name} vs {reference}: {cells[name].check}")
    calls = {name: ready.call for name, ready in prepared.items()}
    medians = timing.round_robin(calls, repeats, min_seconds)
    primal = medians[tools.NumpyPrimal.name]
    for name, seconds in medians.items():
        cells[name].seconds = seconds
        cells[name].ratio = seconds / primal
    for name, cell in cells.items():
        if cell.error:
            log(f"  {workload.NAME}: {name} {cell.error}")
    return WorkloadResult(workload.NAME, workload.TARGET, primal, reference, cells)


def run(names, repeats, min_seconds, log=print):
    all_tools = (tools.NumpyPrimal(), tools.Srcgrad()) + tools.PEERS
    results = []
    for name in names:
        workload = workloads.load(name)
        log(f"{name} ...")
        result = run_workload(workload, all_tools, repeats, min_seconds, log)
        log("  " + ", ".join(f"{tool}={cell.ratio:.2f}" for tool, cell in result.cells.items()
                             if cell.ratio is not None))
        results.append(result)
    return results
