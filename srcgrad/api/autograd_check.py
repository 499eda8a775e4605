"""autograd's ``check_grads(f, argnum, modes, order)(*args)``, on srcgrad's transformations.

The same recursion as autograd's ``test_util``: the function is checked at ``x`` (the
argument at ``argnum``, or the tuple of those at a list of argnums) in each mode against
central differences; for ``order`` > 1 the checks recurse into ``(x, v) -> vjp(f)(x)(v)``
and ``(x, v) -> jvp(f)(x, v)``, so ``order=3`` checks reverse and forward compositions
three deep (``sg.vjp`` and ``sg.jvp`` called inside the function differentiated).

Values follow autograd's vector spaces: every float or complex leaf of ``x`` (an array, a
scalar, a list, tuple or dict of them) is a coordinate; a complex leaf has a real and an
imaginary direction (random directions are complex), inner products are
``Re(sum(conj(a) * b))`` and a cotangent is the conjugate of a covector (autograd's
convention for complex gradients, srcgrad's too). A derivative must have the structure,
shapes and real-or-complex kind of what it differentiates: a real argument's gradient
with an imaginary part, or a tuple's returned as a list, fails the check.
"""

from __future__ import annotations

import functools
import keyword

import numpy as np

from srcgrad.api import functional as api
from srcgrad.api import higher

EPS = 1e-6     # autograd's step (x +- eps/2 * v) and tolerances
TOL = 1e-6
RTOL = 1e-6


def check(f, argnum, modes, order, args, kwargs, tolerances):
    """Check ``f`` at ``args`` as autograd's ``check_grads`` does; raises AssertionError."""
    make = _unary(argnum, len(args), tuple(kwargs))
    fixed = [None if _is_wrt(i, argnum) else a for i, a in enumerate(args)]
    g = make(f, tuple(fixed), tuple(kwargs.values()))
    x = args[argnum] if isinstance(argnum, int) else tuple(args[i] for i in argnum)
    name = getattr(f, "__qualname__", None) or getattr(f, "__name__", repr(f))
    _check_unary(g, x, modes, order, name, tolerances)


def _is_wrt(i, argnum):
    return i == argnum if isinstance(argnum, int) else i in argnum


@functools.cache
def _unary(argnum, count, keywords):
    """``make(f, fixed, kw_values)`` -> ``unary(x)`` calling ``f`` with ``x`` (or its items)
    in the ``argnum`` places and the fixed arguments elsewhere: generated source, so the
    call is one srcgrad reads like any other (keywords named, never spread)."""
    from srcgrad.frontend.interactive import exec_source

    if any(not k.isidentifier() or keyword.iskeyword(k) for k in keywords):
        raise TypeError(f"check_grads: keyword names {keywords!r}")
    wrt = [argnum] if isinstance(argnum, int) else list(argnum)
    places = [("x" if isinstance(argnum, int) else f"x[{wrt.index(i)}]") if i in wrt
              else f"fixed[{i}]" for i in range(count)]
    places += [f"{k}=values[{j}]" for j, k in enumerate(keywords)]
    text = ("def make(f, fixed, values):\n"
            "    def unary(x):\n"
            f"        return f({', '.join(places)})\n"
            "    return unary\n")
    return exec_source(text)["make"]


def _check_unary(g, x, modes, order, name, tol):
    if "fwd" in modes:
        _check_jvp(g, x, name, tol)
        if order > 1:
            v = _randn(x)
            _check_unary(_pair(_jvp_of(g)), (x, v), modes, order - 1, f"jvp_{name}", tol)
    if "rev" in modes:
        _check_vjp(g, x, name, tol)
        if order > 1:
            v = _randn(g(x))
            _check_unary(_pair(_vjp_of(g)), (x, v), modes, order - 1, f"vjp_{name}", tol)


def _vjp_of(g):
    from srcgrad import vjp

    def vjp_of(x, v):
        value, pullback = vjp(g)(x)
        return pullback(v)
    return vjp_of


def _jvp_of(g):
    from srcgrad import jvp

    def jvp_of(x, v):
        value, tangent = jvp(g)(x, v)
        return tangent
    return jvp_of


def _pair(h):
    def pair(xv):
        return h(xv[0], xv[1])
    return pair


def _check_vjp(g, x, name, tol):
    y, pullback = api.vjp(g)(x)
    x_v, y_v = _randn(x), _randn(y)
    vjp_y = _map(np.conj, pullback(_map(np.conj, y_v)), x)
    _same_space(vjp_y, x, f"the gradient (VJP) of {name}")
    exact = _inner(x_v, vjp_y)
    numeric = _inner(y_v, _numeric_jvp(g, x, x_v, tol))
    _close(numeric, exact, f"gradient of {name}", tol)


def _check_jvp(g, x, name, tol):
    x_v = _randn(x)
    tangent = higher.jvp(g)(x, x_v)[1]
    numeric = _numeric_jvp(g, x, x_v, tol)
    _same_space(tangent, numeric, f"the forward derivative (JVP) of {name}")
    v = _randn(numeric)
    _close(_inner(numeric, v), _inner(tangent, v), f"forward derivative of {name}", tol)


def _numeric_jvp(g, x, v, tol):
    step = tol.get("eps", EPS)
    plus = g(_combine(x, v, step / 2))
    minus = g(_combine(x, v, -step / 2))
    return _combine(plus, minus, -1.0, scale=1.0 / step)


def _close(numeric, exact, what, tol):
    atol, rtol = tol.get("atol", TOL), tol.get("rtol", RTOL)
    diff = abs(numeric - exact)
    if diff < atol or diff <= rtol * abs(numeric + exact):
        return
    raise AssertionError(f"{what} is wrong:\n"
                         f"analytic  {exact: .12e}\nnumeric   {numeric: .12e}\n"
                         f"(absolute error {diff:.2e}): FAILED")


# ---- autograd's vector spaces over pytrees of arrays and scalars -------------------------

def _leaf(x):
    return not isinstance(x, (tuple, list, dict))


def _map(fn, tree, like=None):
    """``fn`` on each leaf of ``tree``; a None leaf (srcgrad's symbolic zero) is zeros
    shaped like the same leaf of ``like``."""
    if tree is None and like is not None:
        return _map(fn, _map(lambda a: np.zeros_like(a), like))
    if isinstance(tree, dict):
        return type(tree)((k, _map(fn, tree[k], None if like is None else like[k]))
                          for k in tree)
    if isinstance(tree, (tuple, list)):
        items = [_map(fn, t, None if like is None or _leaf(like) else like[i])
                 for i, t in enumerate(tree)]
        return rebuild(tree, items)
    value = fn(tree)
    scalar = isinstance(tree, (float, complex, int)) and np.ndim(value) == 0
    return np.asarray(value).item() if scalar else value


def rebuild(tree, items):
    """A tuple, list or NamedTuple like ``tree`` holding ``items``."""
    return type(tree)(*items) if hasattr(tree, "_fields") else type(tree)(items)


def leaves(tree):
    """The leaves of nested dicts, tuples and lists, in order."""
    if isinstance(tree, dict):
        return [leaf for k in tree for leaf in leaves(tree[k])]
    if isinstance(tree, (tuple, list)):
        return [leaf for t in tree for leaf in leaves(t)]
    return [tree]


def _randn(x):
    def draw(a):
        shape = np.shape(a)
        if np.iscomplexobj(a):
            return np.random.randn(*shape) + 1j * np.random.randn(*shape)
        return np.random.randn(*shape)
    return _map(draw, x)


def _combine(a, b, step, scale=1.0):
    """``scale * (a + step * b)`` leaf by leaf (autograd's vspace ``add``/``scalar_mul``)."""
    if isinstance(a, dict):
        return type(a)((k, _combine(a[k], b[k], step, scale)) for k in a)
    if isinstance(a, (tuple, list)):
        return rebuild(a, [_combine(s, t, step, scale) for s, t in zip(a, b)])
    value = scale * (np.asarray(a, dtype=np.result_type(a, float)) + step * np.asarray(b))
    return np.asarray(value).item() if np.ndim(a) == 0 and not isinstance(a, np.ndarray) else value


def _inner(a, b):
    return float(sum(np.real(np.vdot(np.asarray(s), np.asarray(t)))
                     for s, t in zip(leaves(a), leaves(b))))


def _space(x):
    if isinstance(x, dict):
        return (type(x).__name__, tuple((k, _space(x[k])) for k in x))
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, tuple(_space(t) for t in x))
    kind = "complex" if np.iscomplexobj(x) else "real"
    return (kind, np.shape(x))


def _same_space(got, want, what):
    if _space(got) != _space(want):
        raise AssertionError(f"{what} has the wrong structure: {_space(got)} where "
                             f"{_space(want)} is expected")
