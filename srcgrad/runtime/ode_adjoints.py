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


def _solver_options(tolerances):
    rtol, atol, mxstep = tolerances
    options = {"rtol": rtol or 1e-10, "atol": atol or 1e-10}
    if mxstep:
        options["mxstep"] = mxstep
    return options


class _Dynamics:
    """``f`` with its argument order (``tfirst``) and the positions that carry floats."""

    def __init__(self, func, y0, args, tfirst):
        self.func, self.tfirst, self.args = func, tfirst, tuple(args)
        self.shape = np.shape(y0)
        self.floats = [i for i, a in enumerate(self.args)
                       if np.asarray(a).dtype.kind == "f"]
        y_index = 1 if tfirst else 0
        self.wrt = (y_index,) + tuple(2 + i for i in self.floats)

    def call_args(self, y, t):
        y = np.reshape(y, self.shape)
        return (t, y, *self.args) if self.tfirst else (y, t, *self.args)

    def __call__(self, y, t):
        return np.ravel(self.func(*self.call_args(y, t)))

    def arg_sizes(self):
        return [np.size(self.args[i]) for i in self.floats]


def _check(full_output):
    if full_output:
        raise NotImplementedError("the derivative of scipy.integrate.odeint with "
                                  "full_output=True")


def odeint_adjoints(g, func, y0, t, args, ans, tfirst, full_output, tolerances):
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
        return np.concatenate([np.ravel(value)] + [np.ravel(gr) for gr in grads])

    adjoint = g[-1].copy()
    adjoint_args = np.zeros(sum(sizes))
    t_grad = np.zeros(len(t))
    options = _solver_options(tolerances)
    for i in range(len(t) - 1, 0, -1):
        t_grad[i] = np.dot(dyn(states[i], t[i]), g[i])
        start = np.concatenate([states[i], adjoint, adjoint_args])
        end = odeint(augmented, start, [t[i], t[i - 1]], **options)[-1]
        adjoint, adjoint_args = end[n:2 * n], end[2 * n:]
        if i > 1:   # the first time's cotangent comes after its time derivative
            adjoint = adjoint + g[i - 1]
    t_grad[0] = -np.dot(dyn(states[0], t[0]), adjoint)
    adjoint = adjoint + g[0]
    return np.reshape(adjoint, np.shape(y0)), t_grad, _split_args(adjoint_args, dyn, sizes)


def _split_args(flat, dyn, sizes):
    out, offset = [0.0] * len(dyn.args), 0
    for i, size in zip(dyn.floats, sizes):
        out[i] = np.reshape(flat[offset:offset + size], np.shape(dyn.args[i]))
        offset += size
    return tuple(out)


def odeint_tangent(func, y0, t, args, ans, tfirst, full_output, tolerances,
                   y0_dot=None, t_dot=None, args_dot=None):
    """The trajectory's tangent along ``y0_dot``, ``t_dot`` and ``args_dot`` (None: 0)."""
    from scipy.integrate import odeint

    import srcgrad

    _check(full_output)
    dyn = _Dynamics(func, y0, args, tfirst)
    forward = srcgrad.jvp(func, wrt=dyn.wrt)
    n = int(np.size(y0))
    states = np.reshape(ans, (len(t), n))
    arg_dots = tuple(np.zeros(np.shape(dyn.args[i])) if args_dot is None
                     or args_dot[i] is None else np.asarray(args_dot[i], dtype=float)
                     for i in dyn.floats)

    def augmented(state, tau):
        y, s = state[:n], state[n:]
        dots = (np.reshape(s, dyn.shape),) + arg_dots
        value, value_dot = forward(*dyn.call_args(y, tau), dots if len(dots) > 1 else dots[0])
        return np.concatenate([np.ravel(value), np.ravel(value_dot)])

    sensitivity = np.zeros(n) if y0_dot is None else np.ravel(y0_dot).astype(float)
    if t_dot is not None:
        sensitivity = sensitivity - dyn(states[0], t[0]) * t_dot[0]
    start = np.concatenate([states[0], sensitivity])
    out = odeint(augmented, start, t, **_solver_options(tolerances))[:, n:]
    if t_dot is not None:
        out = out + np.stack([dyn(states[i], t[i]) * t_dot[i] for i in range(len(t))])
    return np.reshape(out, np.shape(ans))
