"""Dense derivatives (``jacobian``, ``jacfwd``, ``jacrev``, ``hessian``,
``elementwise_grad``) written as generated code, so that code being differentiated can
call them.

``sg.jacobian(f)`` itself runs srcgrad's own Python (a loop over basis vectors calling
the generated ``f_jvp``), which the compiler does not parse. Each of them also keeps,
as the function that calling it inside differentiated code compiles (and that
``sg.grad(sg.jacobian(f))`` differentiates), the same loop written out::

    def f_jacobian(a, y):                         # sg.jacobian(f, wrt=1)
        _dense_basis = _sg.dense_basis(y, 'jacobian')
        _dense_columns = []
        for _dense_vector in _dense_basis:
            _dense_value, _dense_column = _jvp(a, y, _dense_vector)
            _dense_columns.append(_dense_column)
        return np.reshape(np.stack(_dense_columns, axis=-1),
                          _sg.dense_shape(_dense_value, 'jacobian') + np.shape(y))

``jacrev`` stacks rows of the generated backward sweep instead, ``hessian`` stacks
columns of the Hessian-vector products of ``f_grad_jvp``, ``elementwise_grad`` is one
backward sweep with a cotangent of ones. The compiler differentiates it like any callee
(second derivatives, in either mode). Made only for one argument of a function without
defaults, ``*args``, keyword-only parameters or a bound ``self``; a pytree argument or
output raises a TypeError naming the transformation when it runs.
"""

from __future__ import annotations

import inspect

import numpy as np

from srcgrad import runtime
from srcgrad.codegen import loader

_LOOPS = {
    # role: (the derivative function it calls, loop body, result)
    "jacobian": (
        "_jvp",
        ["_dense_basis = _sg.dense_basis({x}, {what!r})",
         "_dense_columns = []",
         "for _dense_vector in _dense_basis:",
         "    _dense_value, _dense_column = _jvp({args}, _dense_vector)",
         "    _dense_columns.append(_dense_column)"],
        "np.reshape(np.stack(_dense_columns, axis=-1), "
        "_sg.dense_shape(_dense_value, {what!r}) + np.shape({x}))"),
    "jacrev": (
        "_forward, _backward",
        ["_dense_value, _dense_saved = _forward({args})",
         "_dense_basis = _sg.dense_basis(_dense_value, {what!r})",
         "_dense_rows = []",
         "for _dense_vector in _dense_basis:",
         "    _dense_rows.append(_backward(_dense_saved, _dense_vector))"],
        "np.reshape(np.stack(_dense_rows), "
        "_sg.dense_shape(_dense_value, {what!r}) + _sg.dense_shape({x}, {what!r}))"),
    "hessian": (
        "_jvp",
        ["_dense_basis = _sg.dense_basis({x}, {what!r})",
         "_dense_columns = []",
         "for _dense_vector in _dense_basis:",
         "    _dense_columns.append(_jvp({args}, _dense_vector)[1])"],
        "np.reshape(np.stack(_dense_columns, axis=-1), np.shape({x}) + np.shape({x}))"),
    "elementwise_grad": (
        "_forward, _backward",
        ["_dense_value, _dense_saved = _forward({args})",
         "_sg.dense_shape(_dense_value, {what!r})"],
        "_backward(_dense_saved, np.ones_like(_dense_value))"),
}


def dense_callee(fn, bound, names, role, what, **functions):
    """The generated function computing ``what`` (``sg.jacobian``...) of ``fn`` w.r.t.
    the one parameter in ``names`` by the loop ``role`` of ``_LOOPS``, calling
    ``functions`` (``_jvp``, or ``_forward`` and ``_backward``); None when there is
    not exactly one, or for a function with defaults, ``*args``, keyword-only parameters
    or a bound ``self`` (a call is then refused when it runs)."""
    code = getattr(fn, "__code__", None)
    if code is None or bound is not None or len(names) != 1 or fn.__defaults__ \
            or fn.__kwdefaults__ or code.co_kwonlyargcount \
            or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return None
    params = list(code.co_varnames[:code.co_argcount])
    if names[0] not in params or any(p.startswith(("_dense", "_sg", "np")) for p in params):
        return None
    # One per generated derivative it calls: ``sg.jacobian(f)`` made again where the
    # function being differentiated runs gets the same callee, compiled once.
    made = next(iter(functions.values())).__dict__.setdefault("dense_callees", {})
    key = (role, what, names[0], tuple(params))
    if key not in made:
        made[key] = _generate(fn, params, names[0], role, what, functions)
    return made[key]


def _generate(fn, params, x, role, what, functions):
    _, body, result = _LOOPS[role]
    fields = {"x": x, "args": ", ".join(params), "what": what}
    lines = [line.format(**fields) for line in body] + [f"return {result.format(**fields)}"]
    name = f"{fn.__name__}_{what.split('.')[-1]}".replace("<lambda>", "lambda_")
    source = f"def {name}({', '.join(params)}):\n" + "".join(f"    {line}\n" for line in lines)
    namespace = {"_sg": runtime, "np": np, **functions}
    loader.load(source, name, namespace)
    generated = namespace[name]
    generated.source = source
    return generated
