"""Each tool's form of an objective module's derivative (``DERIVATIVE``):

- ``gradient``: of ``objective`` w.r.t. ``WRT`` (an index or a tuple of them);
- ``jacobian``: the dense Jacobian of ``JACOBIAN_OF`` w.r.t. its first argument;
- ``newton_direction``: the gradient w.r.t. ``WRT`` divided by the Hessian's diagonal,
  which is a Hessian-vector product with ones (k-means, whose Hessian is diagonal).

autograd and JAX differentiate a fresh copy of the module with ``np`` bound to their
NumPy; ``jax.jit`` holds the arguments that are not arrays static.
"""

import importlib.util
import sys
import types

import numpy as np


def function_of(module):
    return getattr(module, getattr(module, "JACOBIAN_OF", "objective"))


def flat(value):
    """The arrays of a derivative's result (a tuple of them, or one)."""
    if isinstance(value, (tuple, list)):
        return [np.asarray(v) for item in value for v in flat(item)]
    return [np.asarray(value)]


def with_numpy(module, numpy_like, copies=None):
    """A fresh copy of ``module`` with ``np`` bound to ``numpy_like``, and so for the
    functions it imports from other benchmark modules (their fresh copies' functions)."""
    copies = {} if copies is None else copies
    if module.__name__ in copies:
        return copies[module.__name__]
    fresh = importlib.util.module_from_spec(importlib.util.find_spec(module.__name__))
    fresh.__spec__.loader.exec_module(fresh)
    fresh.np = numpy_like
    copies[module.__name__] = fresh
    for name, value in list(vars(fresh).items()):
        home = getattr(value, "__module__", None) or ""
        if isinstance(value, types.FunctionType) and home != module.__name__ and \
                home.startswith("benchmarks."):
            other = with_numpy(sys.modules[home], numpy_like, copies)
            setattr(fresh, name, getattr(other, value.__name__))
    return fresh


def installed(tool):
    """Is ``tool``'s package importable here?"""
    package = {"jax.jit": "jax"}.get(tool, tool)
    return importlib.util.find_spec(package) is not None


def make(tool, module, args):
    """``tool``'s derivative function of ``module`` (``args``: one argument tuple)."""
    if tool == "jax.jit":
        import jax

        compiled = _jax(module, args)

        def finished(*a):   # JAX dispatches asynchronously: wait for the numbers
            return jax.block_until_ready(compiled(*a))

        return finished
    return {"srcgrad": _srcgrad, "autograd": _autograd}[tool](module, args)


def _srcgrad(module, args):
    import srcgrad as sg

    f, kind = function_of(module), module.DERIVATIVE
    if kind == "gradient":
        return sg.grad(f, wrt=module.WRT)
    if kind == "jacobian":
        return sg.jacobian(f)
    gradient, hvp = sg.grad(f, wrt=module.WRT), sg.hvp(f, wrt=module.WRT)

    def direction(*a):
        return gradient(*a) / hvp(*a, np.ones_like(a[module.WRT]))

    return direction


def _autograd(module, args):
    import autograd
    import autograd.numpy as anp

    f, kind = function_of(with_numpy(module, anp)), module.DERIVATIVE
    if kind == "gradient":
        return autograd.grad(f, module.WRT)
    if kind == "jacobian":
        return autograd.jacobian(f)
    gradient = autograd.grad(f, module.WRT)
    hvp = autograd.hessian_tensor_product(f, module.WRT)

    def direction(*a):
        return gradient(*a) / hvp(*a, np.ones_like(a[module.WRT]))

    return direction


def _jax(module, args):
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    f, kind = function_of(with_numpy(module, jnp)), module.DERIVATIVE
    static = tuple(i for i, a in enumerate(args) if not isinstance(a, np.ndarray))
    if kind == "gradient":
        return jax.jit(jax.grad(f, argnums=module.WRT), static_argnums=static)
    if kind == "jacobian":
        rows, columns = np.size(function_of(module)(*args)), np.size(args[0])
        jacobian = jax.jacfwd(f) if columns <= rows else jax.jacrev(f)
        return jax.jit(jacobian, static_argnums=static)
    wrt = module.WRT
    gradient = jax.grad(f, argnums=wrt)

    def direction(*a):
        def along(x):
            return gradient(*a[:wrt], x, *a[wrt + 1:])

        g, hvp = jax.jvp(along, (a[wrt],), (jnp.ones_like(a[wrt]),))
        return g / hvp

    return jax.jit(direction, static_argnums=static)
