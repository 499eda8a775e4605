"""The tools under comparison: the NumPy primal, srcgrad, and the optional peers.

``prepare(workload, args)`` returns a ``Prepared``: ``call()`` runs one gradient (or the
primal) and waits for its result, ``to_numpy(result)`` turns that result into a tuple of
NumPy arrays for the cross-check, and ``setup_seconds`` is the one-off cost paid before the
first call (JAX's jit compile). A peer that is not installed raises ``Unavailable``.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import time

import numpy as np


class Unavailable(Exception):
    """The tool cannot run here at all (reported as its cell text)."""


@dataclasses.dataclass
class Prepared:
    call: object
    to_numpy: object = None
    setup_seconds: float | None = None


def _leaves(grads):
    for g in grads:
        if isinstance(g, (list, tuple)):   # a list of (W, b) pairs and the like
            yield from _leaves(g)
        else:
            yield g


def _as_tuple(grads):
    return tuple(np.asarray(g, dtype=np.float64) for g in _leaves(grads))


def _import(module_name):
    try:
        return importlib.import_module(module_name)
    except ImportError as error:
        raise Unavailable("not installed") from error


def with_numpy_module(workload, numpy_like):
    """A fresh copy of the workload module whose functions see ``numpy_like`` as ``np``."""
    spec = importlib.util.find_spec(workload.__name__)
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    copy.np = numpy_like
    return copy


class NumpyPrimal:
    name = "numpy primal"

    def prepare(self, workload, args):
        objective = workload.objective
        return Prepared(lambda: objective(*args))


class Srcgrad:
    name = "srcgrad"

    def prepare(self, workload, args):
        import srcgrad as sg

        df = sg.grad(workload.objective, wrt=workload.WRT)
        return Prepared(lambda: df(*args), _as_tuple)


class Autograd:
    name = "autograd"

    def prepare(self, workload, args):
        autograd = _import("autograd")
        anp = _import("autograd.numpy")
        objective = with_numpy_module(workload, anp).objective
        df = autograd.grad(objective, argnum=workload.WRT)
        return Prepared(lambda: df(*args), _as_tuple)


def _jax():
    jax = _import("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


def _jax_arguments(jnp, args):
    return tuple(jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args)


class Jax:
    name = "jax"

    def prepare(self, workload, args):
        jax = _jax()
        jnp = _import("jax.numpy")
        objective = with_numpy_module(workload, jnp).objective
        df = jax.grad(objective, argnums=workload.WRT)
        jargs = _jax_arguments(jnp, args)
        return Prepared(lambda: jax.block_until_ready(df(*jargs)), _as_tuple)


class JaxJit:
    name = "jax.jit"

    def prepare(self, workload, args):
        jax = _jax()
        jnp = _import("jax.numpy")
        objective = with_numpy_module(workload, jnp).objective
        # Python scalars that are not differentiated (sizes, constants) are compile-time.
        static = tuple(i for i, a in enumerate(args)
                       if i not in workload.WRT and isinstance(a, (int, float)))
        df = jax.jit(jax.grad(objective, argnums=workload.WRT), static_argnums=static)
        jargs = _jax_arguments(jnp, args)
        start = time.perf_counter()
        jax.block_until_ready(df(*jargs))
        compile_seconds = time.perf_counter() - start
        return Prepared(lambda: jax.block_until_ready(df(*jargs)), _as_tuple, compile_seconds)


class Torch:
    name = "torch"

    def prepare(self, workload, args):
        torch = _import("torch")
        torch.set_num_threads(1)
        leaves = []

        def tensors(a, differentiated):
            if isinstance(a, (list, tuple)):   # a list of (W, b) pairs and the like
                return type(a)(tensors(item, differentiated) for item in a)
            if differentiated:
                leaf = torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)
                leaves.append(leaf)
                return leaf
            return torch.from_numpy(a) if isinstance(a, np.ndarray) else a

        targs = [tensors(a, i in workload.WRT) for i, a in enumerate(args)]
        objective = workload.torch_objective

        def call():
            return torch.autograd.grad(objective(*targs), leaves)

        return Prepared(call, lambda grads: _as_tuple(g.detach().numpy() for g in grads))


class TangentAD:
    name = "tangent-ad"

    def prepare(self, workload, args):
        tangent = _import("tangent")
        df = tangent.grad(workload.objective, wrt=workload.WRT, verbose=0)
        return Prepared(lambda: df(*args), _as_tuple)


PEERS = (Autograd(), Jax(), JaxJit(), Torch(), TangentAD())
