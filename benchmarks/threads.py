"""Single-threaded math libraries, set before NumPy, JAX or PyTorch is imported.

Call ``pin_single_thread()`` before importing any of them; ``describe_blas()`` reports
what threadpoolctl sees afterwards, so the README can show the BLAS really ran on one thread.
"""

import os

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")
# Set on some processors for old OpenBLAS builds; they slow a current NumPy down, so the
# benchmark process (and only it) runs without them.
OPENBLAS_OVERRIDES = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
XLA_SINGLE_THREAD = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"


def pin_single_thread():
    """Pin every math library of this process to one thread; return the dropped overrides."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"
    flags = os.environ.get("XLA_FLAGS", "")
    os.environ["XLA_FLAGS"] = f"{flags} {XLA_SINGLE_THREAD}".strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    return {name: os.environ.pop(name) for name in OPENBLAS_OVERRIDES if name in os.environ}


def child_environment():
    """The environment for a benchmark subprocess: this one, pinned the same way."""
    env = dict(os.environ)
    for name in THREAD_VARIABLES:
        env[name] = "1"
    for name in OPENBLAS_OVERRIDES:
        env.pop(name, None)
    return env


def describe_blas():
    """One line per thread pool that threadpoolctl finds (or why it cannot tell)."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return ["threadpoolctl not installed: thread counts not verified"]
    return [f"{pool['internal_api']} {pool.get('version') or ''} "
            f"({pool.get('architecture') or pool.get('threading_layer') or '?'}): "
            f"{pool['num_threads']} thread(s)" for pool in threadpool_info()]
