"""Check programs in worker processes: ``checked(seeds, modes, hvp_every, jobs)``.

Each worker writes its programs into a folder of its own under one scratch folder and
is replaced after ``TASKS_PER_WORKER`` programs (compiled units and modules pile up);
results come back as they finish, each ``(seed, program, outcome)``::

    for seed, program, outcome in checked(range(100, 200), MODES, 3, jobs=2):
        ...
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile

from benchmarks.fuzz import runner
from benchmarks.fuzz.generate import generate

TASKS_PER_WORKER = 150


def check_one(seed, modes, hvp_every, constructs="all"):
    """``(seed, program, outcome)`` for program ``seed`` (hvp on every ``hvp_every``-th;
    ``constructs``: see ``generate``)."""
    program = generate(seed, constructs=constructs)
    mine = tuple(m for m in modes if m != "hvp" or seed % hvp_every == 0)
    outcome = runner.run(program.source, program.func, program.arg_specs, seed, mine)
    return seed, program, outcome


def _start_worker(base):
    os.environ["SRCGRAD_CACHE"] = "0"
    runner.use_scratch_dir(tempfile.mkdtemp(prefix=f"worker-{os.getpid()}-", dir=base))


def _check(task):
    return check_one(*task)


def checked(seeds, modes, hvp_every, jobs=1, constructs="all"):
    """Yield ``(seed, program, outcome)`` for every seed (in completion order when
    ``jobs`` > 1). Closing the generator stops the workers."""
    if jobs <= 1:
        with runner.disk_cache_off():
            for seed in seeds:
                yield check_one(seed, modes, hvp_every, constructs)
        return
    base = tempfile.mkdtemp(prefix="srcgrad-fuzz-")
    context = multiprocessing.get_context("fork")
    pool = context.Pool(jobs, initializer=_start_worker, initargs=(base,),
                        maxtasksperchild=TASKS_PER_WORKER)
    try:
        tasks = ((seed, modes, hvp_every, constructs) for seed in seeds)
        yield from pool.imap_unordered(_check, tasks, chunksize=1)
    finally:
        pool.terminate()
        pool.join()
        runner.use_scratch_dir(base)
        runner.cleanup()
