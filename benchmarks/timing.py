"""Interleaved timing: every tool is measured once per round, rounds repeated.

Interleaving spreads slow drifts of the machine (frequency, other load) over all tools
equally. Each measurement runs a tool ``number`` times back to back, with ``number``
chosen so one measurement lasts at least ``min_seconds``; the garbage collector is
paused during a measurement, as ``timeit`` does.
"""

from __future__ import annotations

import gc
import math
import statistics
import time

# The clock measurements read: wall time, or (``use_cpu_time``) the CPU time of the
# process, which time spent waiting for a core on a loaded machine leaves out. The
# process's, not the measuring thread's: XLA runs a jitted function on threads of its own.
CLOCK = {"now": time.perf_counter}


def use_cpu_time():
    """Measure the CPU time of the process, every thread's (BLAS pinned to one)."""
    CLOCK["now"] = time.process_time


def measure(call, number):
    """Seconds per call, over ``number`` back-to-back calls."""
    now = CLOCK["now"]
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = now()
        for _ in range(number):
            call()
        return (now() - start) / number
    finally:
        if was_enabled:
            gc.enable()


def calibrate(call, min_seconds):
    """How many calls make one measurement of at least ``min_seconds``."""
    once = measure(call, 1)
    return max(1, math.ceil(min_seconds / max(once, 1e-7)))


def round_robin(calls, repeats, min_seconds):
    """{name: median seconds per call} for ``calls`` ({name: zero-argument callable})."""
    numbers = {name: calibrate(call, min_seconds) for name, call in calls.items()}
    samples = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            samples[name].append(measure(call, numbers[name]))
    return {name: statistics.median(values) for name, values in samples.items()}
