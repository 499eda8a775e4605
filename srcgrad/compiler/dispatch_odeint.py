"""``_sg.odeint_adjoints`` and ``_sg.odeint_tangent`` met in generated code that is
differentiated again: their derivative is the derivative of a small program generated
here, which integrates the same adjoint (reverse mode) or sensitivity (forward mode)
equations with ``scipy.integrate.odeint`` itself, its right-hand side a generated
function calling the *user's* dynamics through ``_sg.dynamic_forward`` /
``dynamic_backward`` / ``dynamic_jvp`` (rows whose derivatives are the user function's
generated derivatives, one order higher: ``compiler.dispatch``, ``dispatch_jvp``).
Differentiating the program again is differentiating ``odeint`` again, whose rows lead
back here: every order is made from rows, never from srcgrad's own source.

The programs are laid out for the call's structure (the number of output times, the
state's shape, which ``args`` are float arrays, the solver's tolerances): for a state of
shape (2,), three times and ``args=(k,)`` with ``k`` of shape (2,), reverse mode::

    def odeint_adjoints(g, func, y0, t, args, ans):
        gs = np.reshape(g, (3, 2))
        states = np.reshape(ans, (3, 2))
        a0 = args[0]
        adjoint = gs[2]
        adjoint_args = np.zeros(2)
        t_grad_2 = np.dot(np.ravel(func(np.reshape(states[2], (2,)), t[2], a0)), gs[2])
        end = _odeint(_dynamics, np.concatenate([states[2], adjoint, adjoint_args]),
                      t[1:3][::-1], args=(func, a0), rtol=1e-10, atol=1e-10)[1]
        ...

with the augmented dynamics ``(f, -a^T df/dy, -a^T df/dargs)``::

    def odeint_adjoint_dynamics(state, tau, func, a0):
        value, saved = _dynamic_forward(func, False, np.reshape(state[0:2], (2,)), tau, a0)
        grads = _dynamic_backward(saved, -np.reshape(state[2:4], (2,)))
        return np.concatenate([np.ravel(value), np.ravel(grads[0] + np.zeros((2,))),
                               np.ravel(grads[2] + np.zeros((2,)))])

Both are what the first-order helpers (``runtime.ode_adjoints``) compute, written out.
"""

from __future__ import annotations

import dataclasses
import threading

import numpy as np

from srcgrad import runtime
from srcgrad.compiler.call_wrappers import _load_wrapper
from srcgrad.errors import MissingRuleError
from srcgrad.runtime import ode_adjoints

_PROGRAMS: dict[tuple, object] = {}
_LOCK = threading.RLock()
# The parameters of ``odeint_adjoints(g, func, y0, t, args, ans, tfirst, full_output,
# rtol, atol, mxstep)`` the program takes (of ``odeint_tangent(func, ..., mxstep, y0_dot,
# t_dot, args_dot)``: ``_TANGENT_INPUTS``).
_ADJOINT_INPUTS = ("g", "func", "y0", "t", "args", "ans")
_TANGENT_INPUTS = ("func", "y0", "t", "args", "ans", "y0_dot", "t_dot", "args_dot")


@dataclasses.dataclass(frozen=True)
class Layout:
    """What a program is generated for."""

    steps: int            # the number of output times
    shape: tuple          # the state's
    tfirst: bool
    args: tuple           # per item of ``args``: its shape if a float array, else None
    options: tuple        # the solver's keywords, ((name, source of its value), ...)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=int))

    def float_args(self):
        return [(i, shape) for i, shape in enumerate(self.args) if shape is not None]

    def call(self, y, tau, names):
        """The source of a call of the dynamics at state ``y`` (shaped) and time ``tau``."""
        first = (tau, y) if self.tfirst else (y, tau)
        return f"func({', '.join(first + tuple(names))})"


def _refused(what):
    return MissingRuleError(f"a derivative of order two or more through "
                            f"scipy.integrate.odeint {what} is not supported yet")


def _arg_shape(arg):
    if isinstance(arg, (list, tuple, dict)):
        if ode_adjoints.has_float_leaf(arg):
            raise _refused("with a list, tuple or dict of float arrays among its args (pass "
                           "the arrays as args of their own)")
        return None
    return tuple(np.shape(arg)) if ode_adjoints.is_float(arg) else None


def layout_of(y0, t, args, tfirst, full_output, rtol, atol, mxstep):
    if full_output:
        raise _refused("with full_output=True")
    if not isinstance(args, tuple):
        raise _refused("with args other than a tuple")
    options = tuple((name, _literal(value)) for name, value
                    in sorted(ode_adjoints.solver_options(rtol, atol, mxstep).items()))
    return Layout(len(t), tuple(np.shape(y0)), bool(tfirst),
                  tuple(_arg_shape(a) for a in args), options)


def _literal(value):
    """The source of a solver setting (a number, or an array of per-component ones)."""
    if np.ndim(value) == 0:
        return repr(value.item() if isinstance(value, np.generic) else value)
    return f"np.array({np.asarray(value, dtype=float).tolist()!r})"


def _cached(key, make):
    with _LOCK:
        found = _PROGRAMS.get(key)
        if found is None:
            found = _PROGRAMS[key] = make()
        return found


def _options(layout):
    return ", ".join(f"{k}={v}" for k, v in layout.options)


def _shaped(layout, piece):
    return f"np.reshape({piece}, {layout.shape!r})"


def _padded(value, shape):
    """The cotangent ``value`` (a zero may come as a Python scalar) as a flat array."""
    return f"np.ravel({value} + np.zeros({shape!r}))"


def adjoint_dynamics(layout):
    """``(state, tau, func, *args) -> (f, -a^T df/dy, -a^T df/dargs)``, flattened."""
    def make():
        n = layout.size
        names = [f"a{i}" for i in range(len(layout.args))]
        y = _shaped(layout, f"state[0:{n}]")
        args = ("tau", y) if layout.tfirst else (y, "tau")
        at = 1 if layout.tfirst else 0
        cotangent = _shaped(layout, f"state[{n}:{2 * n}]")
        pieces = ["np.ravel(value)", _padded(f"grads[{at}]", layout.shape)]
        pieces += [_padded(f"grads[{2 + i}]", shape) for i, shape in layout.float_args()]
        source = (f"def odeint_adjoint_dynamics({', '.join(['state', 'tau', 'func'] + names)}):\n"
                  f"    value, saved = _dynamic_forward(func, False, "
                  f"{', '.join(args + tuple(names))})\n"
                  f"    grads = _dynamic_backward(saved, -{cotangent})\n"
                  f"    return np.concatenate([{', '.join(pieces)}])\n")
        return _load_wrapper(source, "odeint_adjoint_dynamics",
                             {"np": np, "_dynamic_forward": runtime.dynamic_forward,
                              "_dynamic_backward": runtime.dynamic_backward})
    return _cached(("adjoint dynamics", layout), make)


def adjoint_program(layout):
    """``(g, func, y0, t, args, ans) -> (dy0, dt, dargs)``: the adjoint method, written
    out for ``layout`` (module doc)."""
    def make():
        n, steps = layout.size, layout.steps
        names = [f"a{i}" for i in range(len(layout.args))]
        sizes = [int(np.prod(shape, dtype=int)) for _, shape in layout.float_args()]
        carried = sum(sizes) > 0
        lines = [f"gs = np.reshape(g, ({steps}, {n}))",
                 f"states = np.reshape(ans, ({steps}, {n}))"]
        lines += [f"{name} = args[{i}]" for i, name in enumerate(names)]
        lines += [f"adjoint = gs[{steps - 1}]"]
        if carried:
            lines.append(f"adjoint_args = np.zeros({sum(sizes)})")
        state = "[states[{i}], adjoint, adjoint_args]" if carried else "[states[{i}], adjoint]"
        inner_args = "(" + ", ".join(["func"] + names) + ",)"
        for i in range(steps - 1, 0, -1):
            f_i = layout.call(_shaped(layout, f"states[{i}]"), f"t[{i}]", names)
            lines.append(f"t_grad_{i} = np.dot(np.ravel({f_i}), gs[{i}])")
            lines.append(f"end = _odeint(_dynamics, np.concatenate({state.format(i=i)}), "
                         f"t[{i - 1}:{i + 1}][::-1], args={inner_args}, {_options(layout)})[1]")
            lines.append(f"adjoint = end[{n}:{2 * n}]" + (f" + gs[{i - 1}]" if i > 1 else ""))
            if carried:
                lines.append(f"adjoint_args = end[{2 * n}:]")
        f_0 = layout.call(_shaped(layout, "states[0]"), "t[0]", names)
        lines.append(f"t_grad_0 = -np.dot(np.ravel({f_0}), adjoint)")
        lines.append("adjoint = adjoint + gs[0]")
        grads, offset = ["0.0"] * len(names), 0
        for (i, shape), size in zip(layout.float_args(), sizes):
            grads[i] = f"np.reshape(adjoint_args[{offset}:{offset + size}], {shape!r})"
            offset += size
        times = ", ".join(f"t_grad_{i}" for i in range(steps))
        lines.append(f"return (np.reshape(adjoint, np.shape(y0)), np.stack([{times}]), "
                     f"({', '.join(grads)}{',' if len(grads) == 1 else ''}))")
        source = ("def odeint_adjoints(g, func, y0, t, args, ans):\n"
                  + "".join(f"    {line}\n" for line in lines))
        return _load_wrapper(source, "odeint_adjoints",
                             {"np": np, "_odeint": _scipy_odeint(),
                              "_dynamics": adjoint_dynamics(layout)})
    return _cached(("adjoints", layout), make)


def tangent_dynamics(layout, dotted):
    """``(state, tau, func, *args, *arg_dots) -> (f, df/dy s + df/dargs args_dot)``, with
    ``dotted`` the positions of the args that have a tangent."""
    def make():
        n = layout.size
        names = [f"a{i}" for i in range(len(layout.args))]
        dots = [f"d{i}" for i in dotted]
        y = _shaped(layout, f"state[0:{n}]")
        s = _shaped(layout, f"state[{n}:{2 * n}]")
        values = ("tau", y) if layout.tfirst else (y, "tau")
        tangents = ("None", s) if layout.tfirst else (s, "None")
        tangents += tuple(f"d{i}" if i in dotted else "None" for i in range(len(names)))
        params = ", ".join(["state", "tau", "func"] + names + dots)
        source = (f"def odeint_tangent_dynamics({params}):\n"
                  f"    value, value_dot = _dynamic_jvp(func, None, "
                  f"({', '.join(values + tuple(names))},), ({', '.join(tangents)},))\n"
                  f"    return np.concatenate([np.ravel(value), "
                  f"{_padded('value_dot', layout.shape)}])\n")
        return _load_wrapper(source, "odeint_tangent_dynamics",
                             {"np": np, "_dynamic_jvp": runtime.dynamic_jvp})
    return _cached(("tangent dynamics", layout, dotted), make)


def tangent_program(layout, has_y0_dot, has_t_dot, dotted):
    """``(func, y0, t, args, ans, y0_dot, t_dot, args_dot) -> the trajectory's tangent``:
    the sensitivity equations, written out for ``layout``."""
    def make():
        n, steps = layout.size, layout.steps
        names = [f"a{i}" for i in range(len(layout.args))]
        lines = [f"states = np.reshape(ans, ({steps}, {n}))"]
        lines += [f"{name} = args[{i}]" for i, name in enumerate(names)]
        lines += [f"d{i} = args_dot[{i}] + np.zeros({layout.args[i]!r})" for i in dotted]
        lines.append("s = np.ravel(y0_dot) + np.zeros(" + str(n) + ")" if has_y0_dot
                     else f"s = np.zeros({n})")
        terms = [f"np.ravel({layout.call(_shaped(layout, f'states[{i}]'), f't[{i}]', names)})"
                 f" * t_dot[{i}]" for i in range(steps)]
        if has_t_dot:
            lines.append(f"s = s - {terms[0]}")
        inner_args = "(" + ", ".join(["func"] + names + [f"d{i}" for i in dotted]) + ",)"
        lines.append(f"out = _odeint(_dynamics, np.concatenate([states[0], s]), t, "
                     f"args={inner_args}, {_options(layout)})[:, {n}:]")
        if has_t_dot:
            lines.append(f"out = out + np.stack([{', '.join(terms)}])")
        lines.append("return np.reshape(out, np.shape(ans))")
        source = ("def odeint_tangent(func, y0, t, args, ans, y0_dot, t_dot, args_dot):\n"
                  + "".join(f"    {line}\n" for line in lines))
        return _load_wrapper(source, "odeint_tangent",
                             {"np": np, "_odeint": _scipy_odeint(),
                              "_dynamics": tangent_dynamics(layout, dotted)})
    return _cached(("tangent", layout, has_y0_dot, has_t_dot, dotted), make)


def _scipy_odeint():
    from scipy.integrate import odeint

    return odeint


def dispatched_adjoints(func, inputs, kwargs):
    """The ``Callee`` for ``_sg.odeint_adjoints(g, func, y0, t, args, ans, tfirst,
    full_output, rtol, atol, mxstep)`` called through a value (generated code differentiated
    again): the adjoint program for the call's layout."""
    from srcgrad.compiler.dispatch import Callee

    values = [value for value, _ in inputs]
    _, _, y0, t, args, _, tfirst, full_output, rtol, atol, mxstep = values
    program = adjoint_program(layout_of(y0, t, args, tfirst, full_output, rtol, atol, mxstep))
    kept = inputs[:len(_ADJOINT_INPUTS)]
    return Callee(program, tuple(values[:len(kept)]), {},
                  tuple(None if i == 1 else slot for i, (_, slot) in enumerate(kept)))


def dispatched_tangent(func, inputs, kwargs):
    """The ``Callee`` for ``_sg.odeint_tangent(func, y0, t, args, ans, tfirst,
    full_output, rtol, atol, mxstep, y0_dot, t_dot, args_dot)``: the sensitivity program."""
    from srcgrad.compiler.dispatch import Callee

    values = [value for value, _ in inputs]
    (_, y0, t, args, _, tfirst, full_output, rtol, atol, mxstep, y0_dot, t_dot,
     args_dot) = values
    layout = layout_of(y0, t, args, tfirst, full_output, rtol, atol, mxstep)
    dotted = () if args_dot is None else tuple(
        i for i, shape in enumerate(layout.args) if shape is not None
        and args_dot[i] is not None)
    program = tangent_program(layout, y0_dot is not None, t_dot is not None, dotted)
    slots = [slot for _, slot in inputs]
    chosen = [0, 1, 2, 3, 4, 10, 11, 12]
    return Callee(program, tuple(values[i] for i in chosen), {},
                  tuple(None if i == 0 else slots[i] for i in chosen))
