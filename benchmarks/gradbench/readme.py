"""The table's block in benchmarks/README.md, with the environment it was measured in."""

import datetime
import os
import pathlib
import platform
import sys

from benchmarks import threads
from benchmarks.run import _commit, _cpu_model, _versions

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
START, END = "<!-- gradbench:start -->", "<!-- gradbench:end -->"


def environment(options):
    return "\n".join([
        f"- date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"- machine: {_cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}; Python {platform.python_version()}; srcgrad at commit "
        f"{_commit()}",
        f"- {'; '.join(_versions())}",
        "- BLAS: " + "; ".join(threads.describe_blas()),
        f"- medians of {options.repeats} interleaved rounds, each measurement >= "
        f"{options.min_time:g} s, float64, "
        + ("CPU time of the process" if options.cpu_time else "wall time"),
        f"- command: `python -m benchmarks.gradbench.table {' '.join(sys.argv[1:])}`",
        f"- load average (1, 5, 15 min) at the start: {_load(getattr(options, 'load', None))}; "
        f"at the end: {_load(load_now())}",
    ])


def load_now():
    """The machine's load averages, or None where the system does not tell."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):
        return None


def _load(averages):
    return "unknown" if averages is None else ", ".join(f"{a:.1f}" for a in averages)


def write(table, options):
    text = README.read_text()
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    README.write_text(f"{before}{START}\n{environment(options)}\n\n{table}\n{END}{after}")
