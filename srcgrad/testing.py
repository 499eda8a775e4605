"""Check generated gradients in your own test suite.

    from srcgrad.testing import check_grads
    check_grads(loss, (x, w), wrt=(0, 1))     # raises AssertionError on a wrong gradient

The check is directional (as in autograd's ``check_grads``): for random directions ``v``
(one per differentiated argument) and a random output cotangent ``u`` it compares
``<u, J v>``, from central finite differences of ``f`` along ``v``, with
``<J^T u, v>``, from the generated backward sweep (``sg.vjp``). One check covers every
entry of the Jacobian at the cost of two extra calls of ``f``. For a scalar output it
also checks that the fused ``sg.grad`` function agrees with the split pair.

autograd's calling convention works too, so a ported test suite runs unchanged::

    check_grads(loss, modes=["rev"])(weights)          # argnum 0, order 2
    check_grads(f, 1, modes=["fwd", "rev"], order=1)(x, y)

``modes`` picks reverse (``sg.vjp``) and forward (``sg.jvp``) checks; ``order=2`` also
checks the Hessian-vector product ``sg.hvp`` of ``<u, f(x)>`` (forward over reverse)
against central differences of its gradient.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from srcgrad.api import autograd_check, higher
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


def check_grads(f, args=None, wrt=0, kwargs=None, eps=None, rtol=None, atol=None, seed=0,
                *, modes=None, order=None, argnum=None):
    """Raise ``AssertionError`` if ``f``'s generated gradient disagrees with finite
    differences at ``args``; return the relative error otherwise (``eps`` 1e-6, ``rtol``
    1e-5, ``atol`` 1e-9 by default). Without ``args`` (or with an int or a list of ints,
    autograd's ``argnum``) return autograd's checker ``(*args) -> None``: autograd's
    recursion to any ``order`` (2 by default) and tolerances (step, ``atol`` and ``rtol``
    1e-6), complex arguments in their real and imaginary directions."""
    if argnum is not None:       # autograd's keyword
        if args is not None:
            raise TypeError("check_grads: give argnum once")
        args = argnum
    if args is None or _is_argnum(args):
        given = {k: v for k, v in dict(eps=eps, rtol=rtol, atol=atol).items() if v is not None}
        return _autograd_checker(f, 0 if args is None else args,
                                 ("fwd", "rev") if modes is None else tuple(modes),
                                 2 if order is None else order, given)
    if modes is not None or order is not None:
        raise TypeError("modes= and order= belong to autograd's form "
                        "check_grads(f, argnum, modes=..., order=...)(*args)")
    eps, rtol, atol = (1e-6 if eps is None else eps, 1e-5 if rtol is None else rtol,
                       1e-9 if atol is None else atol)
    result = directional_check(f, args, wrt, kwargs, eps, rtol, atol, seed)
    _raise_unless_ok(f, result, "gradient")
    return result.error


def _is_argnum(args):
    items = args if isinstance(args, (tuple, list)) and args else (args,)
    return all(isinstance(a, int) and not isinstance(a, bool) for a in items)


def forward_check(f, args, wrt=0, kwargs=None, eps=1e-6, rtol=1e-5, atol=1e-9, seed=0):
    """Compare ``<u, J v>`` from central differences with ``<u, jvp(f)(args, v)>``."""
    kwargs = dict(kwargs or {})
    args = list(args)
    (position,), names = _positions(f, wrt)
    rng = np.random.default_rng(seed)
    direction = _tree_map(lambda a: _random_like(a, rng), args[position])

    def along(step):
        moved = list(args)
        moved[position] = _tree_map(lambda a, d: _shift(a, d, step), args[position],
                                    direction)
        return f(*moved, **kwargs)

    difference = (np.asarray(along(eps)) - np.asarray(along(-eps))) / (2 * eps)
    value, tangent = higher.jvp(f, wrt)(*args, direction, **kwargs)
    u = _random_like(value, rng)
    numeric, analytic = _vdot(u, difference), _vdot(u, tangent)
    scale = max(abs(numeric), abs(analytic))
    error = abs(numeric - analytic) / scale if scale > 0 else 0.0
    ok = bool(error <= rtol or abs(numeric - analytic) <= atol)
    return GradCheck(names, numeric, analytic, float(error), ok)


def _autograd_checker(f, argnum, modes, order, tolerances):
    unknown = [m for m in modes if m not in ("fwd", "rev")]
    if unknown:
        raise ValueError(f"modes must be 'fwd' and/or 'rev', got {unknown}")
    argnum = argnum if isinstance(argnum, int) else tuple(argnum)

    def check(*args, **kwargs):
        autograd_check.check(f, argnum, modes, order, args, kwargs, tolerances)

    return check


def second_order_check(f, args, wrt=0, kwargs=None, eps=1e-6, rtol=1e-5, atol=1e-9, seed=0):
    """The Hessian-vector product ``sg.hvp`` (forward over reverse) of ``<u, f(x)>``
    along ``v``, against central differences of its gradient along ``v``, both taken
    in a random direction ``w``."""
    kwargs = dict(kwargs or {})
    args = list(args)
    (position,), names = _positions(f, wrt)
    rng = np.random.default_rng(seed + 1)
    u = _random_like(f(*args, **kwargs), rng)
    v = _tree_map(lambda a: _random_like(a, rng), args[position])
    w = _tree_map(lambda a: _random_like(a, rng), args[position])

    def weighted_output(x):
        moved = list(args)
        moved[position] = x
        return np.sum(u * f(*moved, **kwargs))

    gradient = api.grad(weighted_output)
    plus = gradient(_tree_map(lambda a, d: _shift(a, d, eps), args[position], v))
    minus = gradient(_tree_map(lambda a, d: _shift(a, d, -eps), args[position], v))
    numeric = (_tree_vdot(plus, w) - _tree_vdot(minus, w)) / (2 * eps)
    analytic = _tree_vdot(higher.hvp(weighted_output)(args[position], v), w)
    scale = max(abs(numeric), abs(analytic))
    error = abs(numeric - analytic) / scale if scale > 0 else 0.0
    ok = bool(error <= rtol or abs(numeric - analytic) <= atol)
    return GradCheck(names, float(numeric), float(analytic), float(error), ok)


def _raise_unless_ok(f, result, what):
    if not result.ok:
        name = getattr(f, "__qualname__", repr(f))
        raise AssertionError(f"{what} of {name} w.r.t. {', '.join(result.wrt)} is wrong:\n"
                             + result.report())


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
              for a, b in zip(autograd_check.leaves(x), autograd_check.leaves(y))]
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
        return autograd_check.rebuild(tree, items)
    return fn(tree, *others)


def _vdot(a, b):
    return float(np.sum(np.asarray(a) * np.asarray(b)))


def _tree_vdot(grad, direction):
    if grad is None:
        return 0.0
    pairs = zip(autograd_check.leaves(grad), autograd_check.leaves(direction))
    return sum(_vdot(g, d) for g, d in pairs if g is not None)
