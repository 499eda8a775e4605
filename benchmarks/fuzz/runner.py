"""Load a program's source as a module and check it: ``run(source, func, specs, seed)``.

srcgrad reads a function's source from its file, so each program is written to a file
of its own (in one scratch directory) and imported; an entry module next to it reads
the arguments from Variables for the implicit eager API::

    outcome = run(program.source, "f", program.arg_specs, seed=3)
    outcome.verdict.outcome, outcome.args
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import itertools
import os
import shutil
import signal
import sys
import tempfile

import numpy as np

from benchmarks.fuzz import oracle

_COUNTER = itertools.count()
CHECK_SECONDS = 300.0   # every mode of one program (compiles included) on a loaded machine
PRIMAL_SECONDS = 2.0    # the program itself (a shrunk candidate may loop forever)
# ... one that calls srcgrad inside (the ``nested`` family) compiles those derivatives on
# its first run: seconds on a loaded machine, which the plain limit counted as the
# program failing (``invalid``)
DIFFERENTIATING_PRIMAL_SECONDS = 60.0
_SCRATCH = []

ENTRY = """\
from {module} import {func}

VARIABLES = []


def set_variables(variables):
    VARIABLES[:] = variables


def entry():
    return {func}({args})
"""


@dataclasses.dataclass
class Outcome:
    verdict: oracle.Verdict
    args: list


def scratch_dir():
    if not _SCRATCH:
        _SCRATCH.append(tempfile.mkdtemp(prefix="srcgrad-fuzz-"))
    return _SCRATCH[0]


def use_scratch_dir(path):
    """Write programs under ``path`` from now on (a worker process gets one of its own:
    the counter naming the modules starts again in every worker)."""
    os.makedirs(path, exist_ok=True)
    _SCRATCH[:] = [path]


def cleanup():
    for path in _SCRATCH:
        shutil.rmtree(path, ignore_errors=True)
    _SCRATCH.clear()


@contextlib.contextmanager
def disk_cache_off():
    """``SRCGRAD_CACHE=0`` while fuzzing (thousands of one-off programs), restored after."""
    previous = os.environ.get("SRCGRAD_CACHE")
    os.environ["SRCGRAD_CACHE"] = "0"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("SRCGRAD_CACHE", None)
        else:
            os.environ["SRCGRAD_CACHE"] = previous


def load(source, func, count):
    """(the function, the entry module) of ``source``, imported from fresh files."""
    name = f"fuzz_program_{next(_COUNTER)}"
    directory = scratch_dir()
    with open(os.path.join(directory, name + ".py"), "w") as fh:
        fh.write(source)
    entry_source = ENTRY.format(module=name, func=func,
                                args=", ".join(f"VARIABLES[{i}]" for i in range(count)))
    with open(os.path.join(directory, name + "_entry.py"), "w") as fh:
        fh.write(entry_source)
    modules = []
    for module_name in (name, name + "_entry"):
        path = os.path.join(directory, module_name + ".py")
        spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
        modules.append(module)
    return getattr(modules[0], func), modules[1]


def unload(entry_module):
    name = entry_module.__name__
    for module_name in (name, name[:-len("_entry")]):
        sys.modules.pop(module_name, None)
        path = os.path.join(scratch_dir(), module_name + ".py")
        if os.path.exists(path):
            os.remove(path)


def inputs(specs, seed):
    rng = np.random.default_rng(seed)
    return [float(rng.uniform(-1.5, 1.5)) if tuple(shape) == () else
            rng.uniform(-1.5, 1.5, tuple(shape)) for _, shape in specs]


class Timeout(Exception):
    """A program (or a check) ran longer than its limit."""


@contextlib.contextmanager
def time_limit(seconds):
    """Raise ``Timeout`` after ``seconds`` (a shrunk candidate may loop forever: its
    ``while`` lost the statement that counted)."""
    def expire(signum, frame):
        raise Timeout(f"ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def primal_limit(source):
    """Seconds the program itself may run: longer where it calls srcgrad inside."""
    differentiates = any(line.lstrip().startswith(("import srcgrad", "from srcgrad"))
                         for line in source.splitlines()) and "sg." in source.split(
        "\ndef ", 1)[-1]
    return DIFFERENTIATING_PRIMAL_SECONDS if differentiates else PRIMAL_SECONDS


def run(source, func, specs, seed, modes=oracle.MODES, args=None):
    """The verdict on ``source``'s ``func`` at ``args`` (default: drawn from ``seed``);
    ``invalid`` when the program itself fails or gives no finite scalar there."""
    args = inputs(specs, seed) if args is None else args
    try:
        f, entry = load(source, func, len(specs))
    except Exception as error:  # noqa: BLE001 - a shrunk candidate may not even import
        return Outcome(oracle.Verdict("invalid", None, repr(error)), args)
    try:
        try:
            # (an underflow is harmless: the value stays finite and smooth)
            with np.errstate(all="raise", under="ignore"), time_limit(primal_limit(source)):
                value = f(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
            if np.shape(value) != () or not np.isfinite(float(value)):
                raise ValueError(f"not a finite scalar: {value!r}")
        except Exception as error:  # noqa: BLE001 - the program, not srcgrad, failed
            return Outcome(oracle.Verdict("invalid", None, repr(error)), args)
        rng = np.random.default_rng(seed + 1)
        try:
            with time_limit(CHECK_SECONDS):
                verdict = oracle.check(f, args, rng, modes,
                                       entry=(entry.set_variables, entry.entry))
        except Timeout as error:
            verdict = oracle.Verdict("crashed", None, f"Timeout: the check {error}")
        return Outcome(verdict, args)
    finally:
        unload(entry)
