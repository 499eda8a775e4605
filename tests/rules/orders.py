"""Orders 2 and 3 of every rule row, by composing srcgrad's own transforms, against
finite differences of the plain NumPy function (never srcgrad against itself).

For a row, a differentiated argument ``x`` and a random cotangent ``W`` the loss is
``L(x) = Re <W, f(..., x, ...)>``. Along a random direction ``v`` the k-th derivative of
``t -> L(x + t v)`` at 0 is ``D^k L(x)[v, ..., v]``; srcgrad computes it by composition:

    order 1   rev       <grad(L)(x), v>                (FIRST_ORDER_MODES, for matrices
              fwd       jvp(L)(x, v)[1]                 that check orders 1 to 3)
    order 2   fwd-rev   <hvp(L)(x, v), v>              (forward over reverse)
              rev-rev   <grad(y -> <grad(L)(y), v>)(x), v>
              fwd-fwd   jvp(y -> jvp(L)(y, v)[1])(x, v)[1]
    order 3   fwd-fwd-rev   jvp(y -> <hvp(L)(y, v), v>)(x, v)[1]
              rev-fwd-rev   <grad(y -> <hvp(L)(y, v), v>)(x), v>
              rev-rev-rev   <grad(y -> <grad(z -> <grad(L)(z), v>)(y), v>)(x), v>
              fwd-fwd-fwd   jvp(y -> jvp(z -> jvp(L)(z, v)[1])(y, v)[1])(x, v)[1]

The oracle is a central difference of ``t -> L(x + t v)`` itself, with fourth-order
stencils (4 points for the first derivative, 5 for the second, 7 for the third), so no
srcgrad derivative enters it.
"""

from __future__ import annotations

import itertools
import zlib

import numpy as np

import srcgrad as sg
from tests.rules.harness import random_like

ORDER_MODES = {2: ("fwd-rev", "rev-rev", "fwd-fwd"),
               3: ("fwd-fwd-rev", "rev-fwd-rev", "rev-rev-rev", "fwd-fwd-fwd")}
# Every composition of the two modes: with reverse directly over forward too
# (``rev-fwd``: the gradient of a jvp, as autograd's check_grads differentiates).
EVERY_MODE = {order: tuple("-".join(steps) for steps in itertools.product(("fwd", "rev"),
                                                                           repeat=order))
              for order in (2, 3)}
FIRST_ORDER_MODES = ("rev", "fwd")
# Every composition at orders 1 to 3 (autograd's check_grads with ``modes=["fwd", "rev"]``).
ALL_COMPOSITIONS = {1: FIRST_ORDER_MODES, **EVERY_MODE}
# Central stencils (offsets -3..3) of O(h^4), and the step for each order.
_STENCILS = {1: (np.array([0, 1, -8, 0, 8, -1, 0]) / 12.0, 1e-3),
             2: (np.array([0, -1, 16, -30, 16, -1, 0]) / 12.0, 1e-3),
             3: (np.array([1, -8, 13, 0, -13, 8, -1]) / 8.0, 2e-3)}


def pair(g, v):
    """``Re <g, v>`` summed: the pairing of a gradient with a direction."""
    return np.sum(np.real(g * v))


def pair_items(w, ys):
    """``Re <W, y>`` summed over the items of a tuple (or list) result."""
    total = 0.0
    for i in range(len(w)):
        total = total + np.sum(np.real(w[i] * ys[i]))
    return total


def applied(fn, args, index):
    """``x -> fn(*args)`` with ``args[index]`` replaced by ``x``: a closure whose callee
    is known statically (a call through ``*args`` would be resolved only at run time)."""
    a = tuple(args) + (None,) * (5 - len(args))
    return _APPLIERS[(len(args), index)](fn, *a)


def _appliers():
    def one_0(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(x)

    def two_0(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(x, a1)

    def two_1(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(a0, x)

    def three_0(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(x, a1, a2)

    def three_1(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(a0, x, a2)

    def three_2(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(a0, a1, x)

    def four_0(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(x, a1, a2, a3)

    def four_1(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(a0, x, a2, a3)

    def four_2(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(a0, a1, x, a3)

    def four_3(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(a0, a1, a2, x)

    def five_0(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(x, a1, a2, a3, a4)

    def five_1(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(a0, x, a2, a3, a4)

    def five_2(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(a0, a1, x, a3, a4)

    def five_3(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(a0, a1, a2, x, a4)

    def five_4(fn, a0, a1, a2, a3, a4):
        return lambda x: fn(a0, a1, a2, a3, x)

    found = [one_0, two_0, two_1, three_0, three_1, three_2, four_0, four_1, four_2, four_3,
             five_0, five_1, five_2, five_3, five_4]
    counts = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    return {(counts[f.__name__.split("_")[0]], int(f.__name__.split("_")[1])): f
            for f in found}


_APPLIERS = _appliers()


def make_loss(fn, args, index, w):
    """``x -> Re <W, fn(..., x, ...)>`` (a fresh closure: units cached on a function
    never carry over between checks)."""
    call = applied(fn, args, index)
    if isinstance(w, list):
        def loss(x):
            return pair_items(w, call(x))
    else:
        def loss(x):
            return pair(w, call(x))
    return loss


def composed(loss, x, v, mode):
    """``D^k loss(x)[v, ..., v]`` by the composition ``mode`` names (module doc; one
    not named there, ``rev-fwd`` say, nests ``sg.jvp`` and ``sg.grad`` as it reads)."""
    if mode not in ORDER_MODES.get(len(mode.split("-")), ()):   # (order 1 too)
        return _nested(loss, x, v, mode.split("-"))
    if mode.endswith("fwd-fwd") and mode.count("fwd") == len(mode.split("-")):
        inner = loss
        for _ in range(len(mode.split("-")) - 1):
            inner = _jvp_along(inner, v)
        return sg.jvp(inner)(x, v)[1]
    if mode == "fwd-rev":
        return pair(sg.hvp(loss)(x, v), v)
    if mode in ("fwd-fwd-rev", "rev-fwd-rev"):
        hessian_v = sg.hvp(loss)

        def along(y):
            return pair(hessian_v(y, v), v)
        return sg.jvp(along)(x, v)[1] if mode == "fwd-fwd-rev" else pair(sg.grad(along)(x), v)
    inner = loss   # rev-rev, rev-rev-rev
    for _ in range(len(mode.split("-")) - 1):
        inner = _grad_along(inner, v)
    return pair(sg.grad(inner)(x), v)


def _nested(loss, x, v, steps):
    """``steps[0]`` (outermost) of ... of ``steps[-1]`` (innermost) of ``loss``, each a
    derivative along ``v``."""
    inner = loss
    for step in reversed(steps[1:]):
        inner = _jvp_along(inner, v) if step == "fwd" else _grad_along(inner, v)
    return sg.jvp(inner)(x, v)[1] if steps[0] == "fwd" else pair(sg.grad(inner)(x), v)


def _jvp_along(fn, v):
    derivative = sg.jvp(fn)

    def along(y):
        return derivative(y, v)[1]
    return along


def _grad_along(fn, v):
    gradient = sg.grad(fn)

    def along(y):
        return pair(gradient(y), v)
    return along


def precision(value):
    """The machine epsilon of the least precise float in ``value`` (a result of the
    function under test: ``np.complex64(x)`` computes in single precision)."""
    if isinstance(value, (list, tuple)):
        return max((precision(item) for item in value), default=np.finfo(float).eps)
    dtype = np.asarray(value).dtype
    return float(np.finfo(dtype).eps) if dtype.kind in "fc" else np.finfo(float).eps


_EPS64 = float(np.finfo(float).eps)


def finite_difference(loss, x, v, order, eps=_EPS64):
    """The ``order``-th derivative of ``t -> loss(x + t v)`` at 0, and a bound on its
    rounding error, for a function computing with machine epsilon ``eps``: the step
    grows as ``eps ** (1 / (order + 4))`` (the balance of the stencil's O(h^4) error and
    its rounding error), from the float64 steps above."""
    weights, h = _STENCILS[order]
    h *= (eps / _EPS64) ** (1.0 / (order + 4))
    values = np.array([loss(x + k * h * v) for k in range(-3, 4)], dtype=float)
    estimate = float(weights @ values) / h ** order
    rounding = 1e3 * eps * np.max(np.abs(values)) * np.sum(np.abs(weights)) / h ** order
    return estimate, rounding


def check_program(program, order, mode):
    """Assert ``mode``'s ``order``-th directional derivative of ``program`` (a scalar
    function of a vector of 6) against finite differences, called twice (the second call
    runs what the first compiled); the point and direction are drawn from the program's
    name, so each combination is the same from run to run."""
    rng = np.random.default_rng(len(program.__name__) + order)
    x = rng.uniform(0.2, 1.2, 6)
    v = rng.standard_normal(6)
    numeric, rounding = finite_difference(program, x, v, order)
    for _ in range(2):
        analytic = float(composed(program, x, v, mode))
        tol = 1e-4 * max(abs(numeric), abs(analytic)) + 1e-6 + rounding
        assert abs(analytic - numeric) <= tol, (
            f"{program.__name__}, order {order} ({mode}): finite differences {numeric!r}, "
            f"srcgrad {analytic!r}")


def check_order(row_, rng, index, order, mode, rtol=1e-4, atol=1e-6):
    """Assert ``mode``'s ``order``-th directional derivative of ``row_`` in argument
    ``index`` against finite differences."""
    args = row_.sample(rng)
    value = row_.fn(*args)
    w = random_like(value, rng)
    v = random_like(args[index], rng)
    loss = make_loss(row_.fn, args, index, w)
    numeric, rounding = finite_difference(loss, args[index], v, order, precision(value))
    analytic = float(np.real(composed(make_loss(row_.fn, args, index, w), args[index], v,
                                      mode)))
    tol = rtol * max(abs(numeric), abs(analytic)) + atol + rounding
    assert abs(numeric - analytic) <= tol, (
        f"{row_.label()} argument {index}, order {order} ({mode}): finite differences "
        f"{numeric!r}, srcgrad {analytic!r}")


def hash_sample(combos, group, ident):
    """One combination per ``group(combo)``: the one whose ``ident(combo)`` has the
    smallest CRC-32, so the same sample runs every time and, across groups, every
    composition comes up (CI's deterministic sample of a full order matrix)."""
    chosen = {}
    for combo in combos:
        key = zlib.crc32(ident(combo).encode())
        if group(combo) not in chosen or key < chosen[group(combo)][0]:
            chosen[group(combo)] = (key, combo)
    return [combo for _, combo in chosen.values()]
