"""Dense Jacobian time / NumPy primal time of a ported objective, srcgrad's ``jacobian``,
``jacfwd`` and ``jacrev`` (and each batched sweep's baseline: ``jacfwd`` one column at a
time, ``jacrev`` one row at a time) beside autograd's ``jacobian`` when it is installed:

    python -m benchmarks.gradbench.jacobians ba --sizes 200 [--cpu-time]

The objective module gives ``inputs(size)`` (a list of argument tuples, one Jacobian
each: ADBench's bundle adjustment takes one 2 x 15 block per observation) and the
function (``JACOBIAN_OF``, differentiated w.r.t. its first argument). One BLAS thread;
the tools are interleaved in rounds and the median taken (``benchmarks.timing``).
"""

from benchmarks import threads

threads.pin_single_thread()

import argparse  # noqa: E402
import importlib  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks import timing  # noqa: E402


def _autograd_function(module, name):
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        return None
    fresh = importlib.util.module_from_spec(importlib.util.find_spec(module.__name__))
    fresh.__spec__.loader.exec_module(fresh)
    fresh.np = anp
    return autograd.jacobian(getattr(fresh, name))


def _per_column(jacobian):
    """``jacobian`` with the batched sweep turned off: one ``jvp`` per column."""
    from srcgrad.api import jacobians

    def run(*args):
        batched = jacobians.batched_columns
        jacobians.batched_columns = lambda *a: None
        try:
            return jacobian(*args)
        finally:
            jacobians.batched_columns = batched

    return run


def _per_row(jacobian):
    """``jacobian`` with the batched backward sweep turned off: one backward sweep per
    row."""
    from srcgrad.api import jacobians

    def run(*args):
        batched = jacobians.batched_rows
        jacobians.batched_rows = lambda *a: None
        try:
            return jacobian(*args)
        finally:
            jacobians.batched_rows = batched

    return run


def tools(module):
    import srcgrad as sg

    f = getattr(module, module.JACOBIAN_OF)
    found = {"primal": f, "sg.jacobian": sg.jacobian(f), "sg.jacfwd": sg.jacfwd(f),
             "sg.jacfwd per column": _per_column(sg.jacfwd(f)), "sg.jacrev": sg.jacrev(f),
             "sg.jacrev per row": _per_row(sg.jacrev(f))}
    peer = _autograd_function(module, module.JACOBIAN_OF)
    if peer is not None:
        found["autograd"] = peer
    return found


def measure(module, size, repeats, min_time):
    cases = module.inputs(size)
    found = tools(module)
    reference = [found["sg.jacobian"](*args) for args in cases]
    failed = {}
    for name, function in list(found.items()):
        if name == "autograd":   # (a peer may not run a port as written: reported)
            try:
                function(*cases[0])
            except Exception as error:   # noqa: BLE001 (its failure is what is reported)
                failed[name] = f"fails: {type(error).__name__}"
                del found[name]
                continue
        if name != "primal":
            for args, expected in zip(cases, reference):
                np.testing.assert_allclose(function(*args), expected, rtol=1e-6, atol=1e-9)
    calls = {name: (lambda fn=function: [fn(*args) for args in cases])
             for name, function in found.items()}
    return timing.round_robin(calls, repeats, min_time), failed


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gradbench.jacobians")
    parser.add_argument("objective")
    parser.add_argument("--sizes", type=int, nargs="+", required=True)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.05)
    parser.add_argument("--cpu-time", action="store_true")
    options = parser.parse_args(argv)
    if options.cpu_time:
        timing.use_cpu_time()
    module = importlib.import_module(f"benchmarks.gradbench.{options.objective}")
    for size in options.sizes:
        times, failed = measure(module, size, options.repeats, options.min_time)
        primal = times.pop("primal")
        print(f"{options.objective} ({size}): primal {primal * 1e3:.3g} ms; "
              + ", ".join([f"{name} {t / primal:.2f}" for name, t in times.items()]
                          + [f"{name} {why}" for name, why in failed.items()]),
              flush=True)


if __name__ == "__main__":
    main()
