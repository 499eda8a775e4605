"""Derivatives of ``scipy.integrate.odeint`` (see ``srcgrad.rules.scipy_integrate``).

Reverse mode is the adjoint method (Pontryagin; Chen et al., "Neural ordinary
differential equations", 2018): from the last time back to the first, integrate

    dy/dt = f(y, t, *args),   da/dt = -a^T df/dy,   d(a_args)/dt = -a^T df/dargs

adding each output time's cotangent to ``a`` as it is passed. Forward mode integrates
the sensitivity ``s = dy`` beside the state: ``ds/dt = df/dy s + df/dargs args_dot``.
The products with the Jacobians of the user's dynamics ``f`` come from srcgrad itself:
``f`` is compiled with ``sg.vjp`` / ``sg.jvp`` when the derivative first runs (so this
helper, unlike the rest of the runtime, needs the compiler).
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import dtype_of

__all__ = ["odeint_adjoints", "odeint_tangent"]


def solver_options(rtol, atol, mxstep):
    """The solver's keywords for the derivative's integrations: the call's own
    tolerances, 1e-10 where it left them to the solver's defaults."""
    options = {"rtol": rtol or 1e-10, "atol": atol or 1e-10}
    if mxstep:
        options["mxstep"] = mxstep
    return options


def _leaves(tree):
    """The arrays of an argument: itself, or the leaves of a list, tuple or dict of them
    (``args=(params,)`` with ``params`` a list of ``(W, b)`` pairs)."""
    if isinstance(tree, (list, tuple)):
        return [leaf for item in tree for leaf in _leaves(item)]
    if isinstance(tree, dict):
        return [leaf for item in tree.values() for leaf in _leaves(item)]
    return [tree]


def _ravel(tree, like):
    """``tree`` (shaped like ``like``; a leaf may be a scalar zero) as one flat array."""
    return np.concatenate([np.ravel(np.broadcast_to(leaf, np.shape(model))) for leaf, model
                           in zip(_leaves(tree), _leaves(like))] or [np.zeros(0)])


def _unravel(flat, like, offset=0):
    """``(tree shaped like like, next offset)`` from ``flat[offset:]``."""
    if isinstance(like, (list, tuple, dict)):
        items = like.values() if isinstance(like, dict) else like
        out = []
        for item in items:
            part, offset = _unravel(flat, item, offset)
            out.append(part)
        if isinstance(like, dict):
            return dict(zip(like, out)), offset
        return type(like)(out), offset
    size = int(np.size(like))
    return np.reshape(flat[offset:offset + size], np.shape(like)), offset + size


def _is_float_leaf(leaf):
    return isinstance(leaf, (float, np.floating, np.ndarray)) and dtype_of(leaf).kind == "f"


def is_float(arg):
    """Whether ``arg`` (an item of ``args``) carries derivatives: a float array, or a
    list, tuple or dict of them."""
    leaves = _leaves(arg)
    return bool(leaves) and all(_is_float_leaf(leaf) for leaf in leaves)


def has_float_leaf(arg):
    return any(_is_float_leaf(leaf) for leaf in _leaves(arg))


class _Dynamics:
    """``f`` with its argument order (``tfirst``) and the positions that carry floats."""

    def __init__(self, func, y0, args, tfirst):
        self.func, self.tfirst, self.args = func, tfirst, tuple(args)
        self.shape = np.shape(y0)
        self.floats = [i for i, a in enumerate(self.args) if is_float(a)]
        y_index = 1 if tfirst else 0
        self.wrt = (y_index,) + tuple(2 + i for i in self.floats)

    def call_args(self, y, t):
        y = np.reshape(y, self.shape)
        return (t, y, *self.args) if self.tfirst else (y, t, *self.args)

    def __call__(self, y, t):
        return np.ravel(self.func(*self.call_args(y, t)))

    def arg_sizes(self):
        return [sum(int(np.size(leaf)) for leaf in _leaves(self.args[i])) for i in self.floats]


def _check(full_output):
    if full_output:
        raise NotImplementedError("the derivative of scipy.integrate.odeint with "
                                  "full_output=True")


def odeint_adjoints(g, func, y0, t, args, ans, tfirst, full_output, rtol, atol, mxstep):
    """The cotangents of ``(y0, t, args)`` given the cotangent ``g`` of the trajectory."""
    from scipy.integrate import odeint

    import srcgrad

    _check(full_output)
    dyn = _Dynamics(func, y0, args, tfirst)
    backward = srcgrad.vjp(func, wrt=dyn.wrt)
    n, sizes = int(np.size(y0)), dyn.arg_sizes()
    g = np.reshape(g, (len(t), n))
    states = np.reshape(ans, (len(t), n))

    def augmented(state, tau):
        y, a = state[:n], state[n:2 * n]
        value, pull = backward(*dyn.call_args(y, tau))
        grads = pull(-np.reshape(a, dyn.shape))
        grads = grads if len(dyn.wrt) > 1 else (grads,)
        likes = (np.reshape(a, dyn.shape),) + tuple(dyn.args[i] for i in dyn.floats)
        return np.concatenate([np.ravel(value)] + [_ravel(gr, like)
                                                   for gr, like in zip(grads, likes)])

    adjoint = g[-1].copy()
    adjoint_args = np.zeros(sum(sizes))
    t_grad = np.zeros(len(t))
    options = solver_options(rtol, atol, mxstep)
    for i in range(len(t) - 1, 0, -1):
        t_grad[i] = np.dot(dyn(states[i], t[i]), g[i])
        start = np.concatenate([states[i], adjoint, adjoint_args])
        end = odeint(augmented, start, [t[i], t[i - 1]], **options)[-1]
        adjoint, adjoint_args = end[n:2 * n], end[2 * n:]
        if i > 1:   # the first time's cotangent comes after its time derivative
            adjoint = adjoint + g[i - 1]
    t_grad[0] = -np.dot(dyn(states[0], t[0]), adjoint)
    adjoint = adjoint + g[0]
    return np.reshape(adjoint, np.shape(y0)), t_grad, _split_args(adjoint_args, dyn)


def _split_args(flat, dyn):
    out, offset = [0.0] * len(dyn.args), 0
    for i in dyn.floats:
        out[i], offset = _unravel(flat, dyn.args[i], offset)
    return tuple(out)


def _as_float(tangent, like):
    return _unravel(_ravel(tangent, like).astype(float), like)[0]


def odeint_tangent(func, y0, t, args, ans, tfirst, full_output, rtol, atol, mxstep,
                   y0_dot=None, t_dot=None, args_dot=None):
    """The trajectory's tangent along ``y0_dot``, ``t_dot`` and ``args_dot`` (None: 0)."""
    from scipy.integrate import odeint

    import srcgrad

    _check(full_output)
    dyn = _Dynamics(func, y0, args, tfirst)
    forward = srcgrad.jvp(func, wrt=dyn.wrt)
    n = int(np.size(y0))
    states = np.reshape(ans, (len(t), n))
    arg_dots = tuple(_unravel(np.zeros(size), dyn.args[i])[0] if args_dot is None
                     or args_dot[i] is None else _as_float(args_dot[i], dyn.args[i])
                     for i, size in zip(dyn.floats, dyn.arg_sizes()))

    def augmented(state, tau):
        y, s = state[:n], state[n:]
        dots = (np.reshape(s, dyn.shape),) + arg_dots
        value, value_dot = forward(*dyn.call_args(y, tau), dots if len(dots) > 1 else dots[0])
        return np.concatenate([np.ravel(value), np.ravel(value_dot)])

    sensitivity = np.zeros(n) if y0_dot is None else np.ravel(y0_dot).astype(float)
    if t_dot is not None:
        sensitivity = sensitivity - dyn(states[0], t[0]) * t_dot[0]
    start = np.concatenate([states[0], sensitivity])
    out = odeint(augmented, start, t, **solver_options(rtol, atol, mxstep))[:, n:]
    if t_dot is not None:
        out = out + np.stack([dyn(states[i], t[i]) * t_dot[i] for i in range(len(t))])
    return np.reshape(out, np.shape(ans))


# The right-hand side is user code, run here (see ``runtime.dynamic``).
for _runs_user_code in (odeint_adjoints, odeint_tangent):
    vars(_runs_user_code)["__srcgrad_runs_user_code__"] = True
