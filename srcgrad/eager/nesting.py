"""Gradient functions called inside code that is itself differentiated.

``gradients_function(f)`` and ``value_and_gradients_function(f)`` return wrappers whose
``__wrapped__`` is ``f`` (for ``help`` and ``inspect``), so the compiler must not parse a
call to one as a call to ``f``. It asks the wrapper's ``__srcgrad_callee__`` instead,
which gives a function to compile in its place, generated once::

    def f_gradients(x, y):                   # gradients_function(f)
        _grads = f_value_and_grad(x, y)[1]   # the eager unit's fused function
        return [_grads[0], _grads[1]]

(``value_and_gradients_function`` returns ``(_value, [...])``), so the gradient is
differentiated again: second derivatives. For a function with defaults, ``*args``,
keyword-only parameters or a bound ``self``, for one that reads Variables (its
generated code hands their cotangents to a collector, which the caller's would take for
its own), and for the other eager wrappers (``implicit_*``, ``make_vjp``), which read
Variables the caller cannot see into, it gives a function that raises a TransformError
saying so when it is called (compiled as a callee like any other).
"""

from __future__ import annotations

import inspect

from srcgrad import runtime
from srcgrad.api import functional as api
from srcgrad.codegen import loader
from srcgrad.compiler import reverse as compiler
from srcgrad.errors import TransformError


def refused(what):
    """``__srcgrad_callee__`` of a wrapper that cannot be differentiated through: a
    function that raises a TransformError when the generated code calls it."""
    message = (f"srcgrad cannot differentiate through {what} called inside a function "
               "being differentiated; call it outside, or use sg.gradients_function of "
               "code that reads no Variables")

    def not_differentiable(*args, **kwargs):
        raise TransformError(message)

    return lambda: not_differentiable


def differentiable_callee(f, params, with_value):
    """``__srcgrad_callee__`` for ``gradients_function(f, params)`` (``with_value``:
    ``value_and_gradients_function``): builds the function above on first use."""
    built = []
    what = "a value_and_gradients_function" if with_value else "a gradients_function"

    def callee():
        if not built:
            generated = _generate(f, params, with_value)
            built.append(generated or refused(f"{what} of a function that reads Variables "
                                              "or takes defaults, *args or **kwargs")())
        return built[0]

    return callee


def _generate(f, params, with_value):
    fn, bound = api._target(f)
    spec = inspect.getfullargspec(fn)
    if bound is not None or spec.varargs or spec.varkw or spec.kwonlyargs or spec.defaults:
        return None
    names = spec.args
    if params is None:
        positions = list(range(len(names)))
    elif all(isinstance(p, str) for p in params) and set(params) <= set(names):
        positions = [names.index(p) for p in params]
    elif all(type(p) is int and 0 <= p < len(names) for p in params):
        positions = list(params)
    else:
        return None   # (the call itself raises TF's error)
    wrt = tuple(dict.fromkeys(names[i] for i in positions))
    if not wrt:
        return None
    unit = compiler.reverse_unit(fn, wrt, eager=True)
    if _hands_cotangents(unit, set()):
        return None   # its Variables' cotangents would reach the caller's collector
    fused = f"{fn.__name__}_value_and_grad"
    grads = ", ".join(f"_grads[{wrt.index(names[i])}]" for i in positions)
    result = f"(_value, [{grads}])" if with_value else f"[{grads}]"
    name = f"{fn.__name__}_{'value_and_gradients' if with_value else 'gradients'}"
    args = ", ".join(names)
    source = (f"def {name}({args}):\n"
              f"    _value, _grads = {fused}({args})\n"
              f"    return {result}\n")
    namespace = {"_sg": runtime, fused: unit.value_and_grad}
    loader.load(source, name, namespace)
    return namespace[name]


def _hands_cotangents(unit, seen):
    """Does the generated code of ``unit`` (or of a callee) hand cotangents to Variables
    (``_sg.variable_cotangent``, a dynamic callee's backward)? Run inside other generated
    code, those would be taken for the caller's own."""
    if id(unit) in seen:
        return False
    seen.add(id(unit))
    if "_sg.variable_cotangent(" in unit.source or "_sg.dynamic_backward(" in unit.source:
        return True
    return any(_hands_cotangents(callee, seen) for callee, _ in unit.callees.values())
