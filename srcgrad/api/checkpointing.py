"""Trading recomputation for memory: ``checkpoint`` and ``checkpoint_loop``.

``sg.checkpoint(fn)`` marks a function whose intermediate values are not stored: the
forward sweep of a caller keeps only ``fn``'s arguments, and the backward sweep runs
``fn``'s generated forward sweep again before its backward sweep::

    y, layer_saved = layer_forward(x, w)     # saves (x, w) only
    ...
    dx_layer, dw_layer = layer_backward(layer_saved, dy)   # recomputes, then reverses

``sg.checkpoint_loop(step, carry, xs, args)`` is ``for x in xs: carry = step(carry, x,
args)`` (a scan) whose gradient stores a few carries instead of every step's values. The
backward sweep follows a binomial (revolve-style) schedule: with ``s`` snapshots and ``r``
recomputations per step it reverses up to ``C(s + r, s)`` steps; the default ``s`` is
``ceil(log2(n))``, so 400 steps need 9 stored carries and at most 4 recomputations each.
"""

from __future__ import annotations

import math
from typing import TypeVar

import numpy as np

from srcgrad.api import functional as api
from srcgrad.api.custom import custom_vjp
from srcgrad.api.typing import Function

F = TypeVar("F", bound=Function)


def checkpoint(fn: F) -> F:
    """``fn``, callable as before, with a gradient that recomputes ``fn``'s intermediate
    values in the backward sweep instead of storing them (a caller's forward sweep keeps
    only ``fn``'s arguments). Use it on a layer or block of a large model."""
    params = api.parameter_names(fn, None)
    wrapped = custom_vjp(fn)

    def checkpoint_fwd(*args):
        return fn(*args), args

    def checkpoint_bwd(args, g):
        _, backward = api.vjp(fn, tuple(params))(*args)
        return backward(g)

    return wrapped.defvjp(checkpoint_fwd, checkpoint_bwd)


def _slice(xs, t):
    return tuple(x[t] for x in xs) if isinstance(xs, tuple) else xs[t]


def _length(xs):
    return len(xs[0]) if isinstance(xs, tuple) else len(xs)


def _run(step, carry, xs, args):
    for t in range(_length(xs)):
        carry = step(carry, _slice(xs, t), args)
    return carry


@custom_vjp
def checkpoint_loop(step, carry, xs, args):
    """``for t in range(len(xs)): carry = step(carry, xs[t], args)``; returns the final
    carry (``xs`` may be a tuple of sequences: ``step`` then gets a tuple of their items).
    Its gradient stores O(log n) carries (see the module)."""
    return _run(step, carry, xs, args)


def _loop_fwd(step, carry, xs, args):
    return _run(step, carry, xs, args), (step, carry, xs, args)


def _loop_bwd(saved, g, *, wrt=("carry", "xs", "args")):
    step, carry, xs, args = saved
    n = _length(xs)
    schedule = _Revolve(step, xs, args, "xs" in wrt)
    snapshots = max(1, math.ceil(math.log2(max(n, 2))))
    dcarry = schedule.reverse(0, n, carry, g, snapshots)
    return None, dcarry, schedule.dxs, schedule.dargs


checkpoint_loop.defvjp(_loop_fwd, _loop_bwd)


def binomial(s, r):
    """How many steps ``s`` snapshots and ``r`` recomputations per step can reverse."""
    return math.comb(s + r, s)


class _Revolve:
    """Reverse steps ``[start, end)`` from the carry at ``start``, storing at most
    ``snapshots`` further carries at a time (binomial checkpointing)."""

    def __init__(self, step, xs, args, with_xs=True):
        self.step, self.xs, self.args = step, xs, args
        self.with_xs = with_xs   # (no cotangent for the sequence when nobody reads it)
        # By position: ``step``'s parameters may have any names (carry, item, args).
        self.vjp = api.vjp(step, (0, 1, 2) if with_xs else (0, 2))
        self.dargs = None
        self.dxs = None
        if with_xs:
            self.dxs = tuple(np.zeros(np.shape(x)) for x in xs) if isinstance(xs, tuple) \
                else np.zeros(np.shape(xs))

    def advance(self, carry, start, stop):
        for t in range(start, stop):
            carry = self.step(carry, _slice(self.xs, t), self.args)
        return carry

    def reverse(self, start, end, carry, g, snapshots):
        length = end - start
        if length == 1:
            return self.reverse_step(start, carry, g)
        if snapshots == 0:
            for t in reversed(range(start, end)):
                g = self.reverse_step(t, self.advance(carry, start, t), g)
            return g
        reps = 1
        while binomial(snapshots, reps) < length:
            reps += 1
        left = max(1, length - binomial(snapshots - 1, reps))
        middle = self.advance(carry, start, start + left)
        g = self.reverse(start + left, end, middle, g, snapshots - 1)
        del middle
        return self.reverse(start, start + left, carry, g, snapshots)

    def reverse_step(self, t, carry, g):
        _, backward = self.vjp(carry, _slice(self.xs, t), self.args)
        if not self.with_xs:
            dcarry, dargs = backward(g)
        else:
            dcarry, dx, dargs = backward(g)
            if isinstance(self.xs, tuple):
                for total, part in zip(self.dxs, dx):
                    total[t] += part
            else:
                self.dxs[t] += dx
        self.dargs = dargs if self.dargs is None else _add(self.dargs, dargs)
        return dcarry


def _add(a, b):
    if isinstance(a, (tuple, list)):
        return type(a)(_add(x, y) for x, y in zip(a, b))
    return a + b
