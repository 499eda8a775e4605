"""srcgrad's derivative of a function written against the array API standard, run on
another library's arrays, against that library's own AD on the same function.

The entry point for cross-library measurements: ``compare(workload, library, ...)``
times ``sg.grad(workload.xp_objective)`` on ``library``'s arrays against the library's
own gradient of the same ``xp_objective`` (``jax.grad``, ``torch.autograd``), both
optionally under the library's compiler (``jax.jit``), interleaved round-robin
(``benchmarks.timing``), after checking the two gradients agree.

Run: ``python -m benchmarks.array_libraries`` (JAX, jitted: ``jax.jit(sg.grad(f))``
against ``jax.jit(jax.grad(f))`` on the mlp workload; ``--library torch`` for torch
tensors against ``torch.autograd``, eager).
"""

from __future__ import annotations

import argparse
import importlib

import numpy as np

import srcgrad as sg
from benchmarks.timing import round_robin, use_cpu_time


def arrays_of(library, args):
    """The workload's NumPy inputs as ``library``'s arrays (numbers stay numbers)."""
    if library == "jax":
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_enable_x64", True)
        return [jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    if library == "torch":
        import torch

        return [torch.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    raise ValueError(f"unknown library {library!r}: jax or torch")


def native_gradient(library, f, wrt):
    """The library's own gradient of ``f`` with respect to the positions ``wrt``."""
    if library == "jax":
        import jax

        return jax.grad(f, argnums=wrt)
    import torch

    def torch_grad(*args):
        leaves = [a.detach().requires_grad_(True) if i in wrt else a
                  for i, a in enumerate(args)]
        value = f(*leaves)
        return torch.autograd.grad(value, [leaves[i] for i in wrt])
    return torch_grad


def compare(workload, library, size="full", jit=True, repeats=7, min_seconds=0.2):
    """{"srcgrad": s, "native": s, "ratio": srcgrad / native} seconds per gradient."""
    module = importlib.import_module(f"benchmarks.workloads.{workload}")
    args = arrays_of(library, module.inputs(size))
    wrt = tuple(module.WRT)
    ours = sg.grad(module.xp_objective, wrt=wrt)
    theirs = native_gradient(library, module.xp_objective, wrt)
    if jit and library == "jax":
        import jax

        ours, theirs = jax.jit(ours), jax.jit(theirs)
    for a, b in zip(ours(*args), theirs(*args)):
        assert np.allclose(np.asarray(a), np.asarray(b), rtol=1e-8, atol=1e-10)

    def block(call):
        def run():
            out = call(*args)
            if library == "jax":
                out[0].block_until_ready()
        return run

    times = round_robin({"srcgrad": block(ours), "native": block(theirs)}, repeats,
                        min_seconds)
    return {**times, "ratio": times["srcgrad"] / times["native"]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", default="mlp")
    parser.add_argument("--library", default="jax", choices=("jax", "torch"))
    parser.add_argument("--size", default="full")
    parser.add_argument("--no-jit", action="store_true")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--cpu-time", action="store_true",
                        help="measure the thread's CPU time (a loaded machine)")
    options = parser.parse_args(argv)
    if options.cpu_time:
        use_cpu_time()
    result = compare(options.workload, options.library, options.size,
                     jit=not options.no_jit, repeats=options.repeats)
    native = {"jax": "jax.grad", "torch": "torch.autograd"}[options.library]
    jitted = options.library == "jax" and not options.no_jit
    wrap = "jax.jit({})" if jitted else "{}"
    print(f"{options.workload} ({options.size}) on {options.library}: "
          f"{wrap.format('sg.grad')} {result['srcgrad'] * 1e3:.3f} ms, "
          f"{wrap.format(native)} {result['native'] * 1e3:.3f} ms, "
          f"ratio {result['ratio']:.2f}")


if __name__ == "__main__":
    main()
