"""Check generated gradients in your own test suite.

    from srcgrad.testing import check_grads
    check_grads(loss, (x, w), wrt=(0, 1))     # raises AssertionError on a wrong gradient

The check is directional (as in autograd's ``check_grads``): for random directions ``v``
(one per differentiated argument) and a random output cotangent ``u`` it compares
``<u, J v>``, from central finite differences of ``f`` along ``v``, with
``<J^T u, v>``, from the generated backward sweep (``sg.vjp``). One check covers every
entry of the Jacobian at the cost of two extra calls of ``f``. For a scalar output it
also checks that the fused ``sg.grad`` function agrees with the split pair.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from srcgrad.api import functional as api


@dataclasses.dataclass
class GradCheck:
    """The outcome of one directional check."""

    wrt: tuple          # the differentiated parameters' names
    numeric: float      # <u, J v> by central differences
    analytic: float     # <J^T u, v> by the generated backward sweep
    error: float        # relative error between the two
    ok: bool

    def report(self):
        verdict = "ok" if self.ok else "FAILED"
        return (f"<u, J v>   = {self.numeric: .12e}  (central differences)\n"
                f"<J^T u, v> = {self.analytic: .12e}  (generated backward sweep)\n"
                f"relative error {self.error:.2e}: {verdict}")


def directional_check(f, args, wrt=0, kwargs=None, eps=1e-6, rtol=1e-5, atol=1e-9, seed=0):
    """Compare ``<u, J v>`` with ``<J^T u, v>`` at ``args``; returns a ``GradCheck``."""
    kwargs = dict(kwargs or {})
    args = list(args)
    positions, names = _positions(f, wrt)
    rng = np.random.default_rng(seed)
    directions = [_tree_map(lambda a: _random_like(a, rng), args[i]) for i in positions]

    def along(step):
        moved = list(args)
        for i, v in zip(positions, directions):
            moved[i] = _tree_map(lambda a, d: _shift(a, d, step), args[i], v)
        return f(*moved, **kwargs)

    plus, minus = along(eps), along(-eps)
    value, backward = api.vjp(f, wrt)(*args, **kwargs)
    u = _random_like(value, rng)
    numeric = _vdot(u, (np.asarray(plus) - np.asarray(minus)) / (2 * eps))
    grads = backward(u)
    grads = grads if isinstance(wrt, (tuple, list)) else (grads,)
    analytic = sum(_tree_vdot(g, v) for g, v in zip(grads, directions))
    scale = max(abs(numeric), abs(analytic))
    error = abs(numeric - analytic) / scale if scale > 0 else 0.0
    ok = bool(error <= rtol or abs(numeric - analytic) <= atol)
    if ok and np.ndim(value) == 0:
        ok = _fused_agrees(f, args, kwargs, wrt, rtol, atol)
    return GradCheck(names, float(numeric), float(analytic), float(error), ok)


def check_grads(f, args, wrt=0, kwargs=None, eps=1e-6, rtol=1e-5, atol=1e-9, seed=0):
    """Raise ``AssertionError`` if ``f``'s generated gradient disagrees with finite
    differences at ``args``; return the relative error otherwise."""
    result = directional_check(f, args, wrt, kwargs, eps, rtol, atol, seed)
    if not result.ok:
        name = getattr(f, "__qualname__", repr(f))
        raise AssertionError(f"gradient of {name} w.r.t. {', '.join(result.wrt)} is wrong:\n"
                             + result.report())
    return result.error


def _positions(f, wrt):
    """Argument positions and names of the ``wrt`` parameters."""
    fn, bound = api._target(f)
    params = api.parameter_names(fn, bound)
    resolved = api.resolve_wrt(fn, wrt, bound)
    names = resolved if isinstance(resolved, tuple) else (resolved,)
    return [params.index(name) for name in names], names


def _fused_agrees(f, args, kwargs, wrt, rtol, atol):
    fused = api.grad(f, wrt)(*args, **kwargs)
    split = api.vjp(f, wrt)(*args, **kwargs)[1](1.0)
    fused = fused if isinstance(wrt, (tuple, list)) else (fused,)
    split = split if isinstance(wrt, (tuple, list)) else (split,)
    leaves = [(a, b) for x, y in zip(fused, split)
              for a, b in zip(_leaves(x), _leaves(y))]
    return all(np.allclose(a, b, rtol=rtol, atol=atol) for a, b in leaves)


def _random_like(x, rng):
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return float(rng.standard_normal())
    if np.ndim(x) == 0:
        return float(rng.standard_normal())
    return rng.standard_normal(np.shape(x))


def _shift(a, d, step):
    shifted = np.asarray(a, dtype=float) + step * np.asarray(d)
    return float(shifted) if np.ndim(a) == 0 else shifted


def _tree_map(fn, tree, *others):
    if isinstance(tree, dict):
        return type(tree)((k, _tree_map(fn, tree[k], *(o[k] for o in others))) for k in tree)
    if isinstance(tree, (tuple, list)):
        items = [_tree_map(fn, t, *(o[i] for o in others)) for i, t in enumerate(tree)]
        return type(tree)(*items) if hasattr(tree, "_fields") else type(tree)(items)
    return fn(tree, *others)


def _leaves(tree):
    if isinstance(tree, dict):
        return [leaf for k in tree for leaf in _leaves(tree[k])]
    if isinstance(tree, (tuple, list)):
        return [leaf for t in tree for leaf in _leaves(t)]
    return [tree]


def _vdot(a, b):
    return float(np.sum(np.asarray(a) * np.asarray(b)))


def _tree_vdot(grad, direction):
    if grad is None:
        return 0.0
    return sum(_vdot(g, d) for g, d in zip(_leaves(grad), _leaves(direction))
               if g is not None)
