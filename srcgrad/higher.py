"""Forward mode and higher-order entry points: jvp, hvp, hessian.

Each resolves ``wrt`` once and hands back generated code:

- ``jvp(f)`` is ``f``'s generated forward-mode function ``f_jvp``;
- ``hvp(f)`` is forward mode applied to ``f``'s *generated gradient* (its source is in
  ``linecache``, so it is parsed like any user function): ``f_grad_jvp``;
- ``hessian`` builds a dense Hessian from Hessian-vector products (``jacobian`` and its
  forward/reverse variants live in ``srcgrad.jacobians``).
"""

from __future__ import annotations

import numpy as np

from srcgrad import api, compiler
from srcgrad.compiler_forward import call_jvp, forward_unit


def _resolve(f, wrt, argnums=None):
    wrt = api.wrt_or_argnums(wrt, argnums)
    fn, bound = api._target(f)
    names = api.resolve_wrt(fn, wrt, bound)
    single = isinstance(names, str)
    return fn, bound, ((names,) if single else names), single


def _primals(bound, args):
    return args if bound is None else (bound,) + tuple(args)


def _split(args, what):
    if not args:
        raise TypeError(f"expected the function's arguments followed by the {what}")
    return args[:-1], args[-1]


def jvp(f, wrt=api.FIRST, *, argnums=None):
    """A function ``(*args, tangent) -> (value, directional derivative)`` (forward mode).
    For a tuple ``wrt``, ``tangent`` is a tuple with one tangent per argument."""
    fn, bound, names, single = _resolve(f, wrt, argnums)
    unit = forward_unit(fn, names)

    def jvp_fn(*args, **kwargs):
        primals, tangent = _split(args, "tangent")
        tangents = (tangent,) if single else tuple(tangent)
        return call_jvp(unit, _primals(bound, primals), tangents, **kwargs)

    jvp_fn.source = unit.source
    jvp_fn.unit = unit
    if single and bound is None and not fn.__defaults__:
        jvp_fn.__srcgrad_function__ = unit.jvp   # same calling convention: nests
    return jvp_fn


def hvp(f, wrt=api.FIRST, *, argnums=None):
    """A function ``(*args, vector) -> H @ vector``, the Hessian of ``f``'s scalar output
    w.r.t. ``wrt`` times ``vector`` (forward mode over the generated gradient)."""
    fn, bound, names, single = _resolve(f, wrt, argnums)
    gradient = compiler.reverse_unit(fn, names[0] if single else names).grad
    unit = forward_unit(gradient, names)

    def hvp_fn(*args, **kwargs):
        primals, vector = _split(args, "vector")
        vectors = (vector,) if single else tuple(vector)
        return call_jvp(unit, _primals(bound, primals), vectors, **kwargs)[1]

    hvp_fn.source = unit.source
    hvp_fn.unit = unit
    return hvp_fn


def _basis(shape, index):
    e = np.zeros(shape)
    e[index] = 1.0
    return e if shape else float(e)


def _inputs(fn, bound, names, args):
    params = api.parameter_names(fn, bound)
    return [np.asarray(args[params.index(n)], dtype=float) for n in names]


def hessian(f, wrt=api.FIRST, *, argnums=None):
    """A function returning the dense Hessian of ``f``'s scalar output, shaped input shape +
    input shape (for a tuple ``wrt``, a tuple of tuples of blocks)."""
    fn, bound, names, single = _resolve(f, wrt, argnums)
    product = hvp(f, names)

    def hessian_fn(*args):
        xs = _inputs(fn, bound, names, args)
        blocks = [[np.zeros(a.shape + b.shape) for b in xs] for a in xs]
        for k, x in enumerate(xs):
            for in_index in np.ndindex(x.shape):
                vectors = tuple(_basis(x.shape, in_index) if j == k else np.zeros(y.shape)
                                for j, y in enumerate(xs))
                for i, column in enumerate(product(*args, vectors)):
                    blocks[i][k][(...,) + in_index] = column
        return blocks[0][0] if single else tuple(tuple(row) for row in blocks)

    return hessian_fn
