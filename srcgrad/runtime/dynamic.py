"""Calls whose callee is known only when they run: ``self.layer(x)``, ``net(x)``.

The generated code calls ``dynamic_forward(func, owner_varies, *args)``: it finds the
Python function behind ``func`` (a bound method, or an object with ``__call__``), has it
compiled (w.r.t. every argument, and the object itself when ``owner_varies``) and runs
its generated forward; ``dynamic_backward(saved, g)`` runs the matching backward and
returns one cotangent per input. Generated code that makes such calls needs the srcgrad
compiler at run time (imported here on first use), unlike the rest of the runtime.
"""

from __future__ import annotations

import inspect
import types

__all__ = ["dynamic_backward", "dynamic_forward", "dynamic_forward_eager"]


def dynamic_forward(func, owner_varies, *args, **kwargs):
    return _forward(func, owner_varies, args, kwargs, eager=False)


def dynamic_forward_eager(func, owner_varies, *args, **kwargs):
    return _forward(func, owner_varies, args, kwargs, eager=True)


def dynamic_backward(saved, g):
    unit, inner = saved
    return unit.backward(inner, g)


def _forward(func, owner_varies, args, kwargs, eager):
    from srcgrad import compiler

    fn, owner = _python_function(func)
    params = [p.name for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    inputs = list(args) if owner is None else [owner] + list(args)
    if len(inputs) > len(params):
        raise TypeError(f"srcgrad: {fn.__qualname__} gets more positional arguments than "
                        "it names; a value passed through *args cannot be differentiated")
    wrt = params[:len(inputs)]
    if owner is not None and not owner_varies:
        wrt = wrt[1:]
    unit = compiler.reverse_unit(fn, tuple(wrt), eager=eager)
    value, inner = unit.forward(*inputs, **kwargs)
    return value, (unit, inner)


def _python_function(func):
    """(plain Python function, the object it is bound to or None)."""
    if isinstance(func, types.MethodType) and isinstance(func.__func__, types.FunctionType):
        return func.__func__, func.__self__
    if isinstance(func, types.FunctionType):
        return func, None
    call = next((vars(k)["__call__"] for k in type(func).__mro__ if "__call__" in vars(k)),
                None)
    if isinstance(call, types.FunctionType):
        return call, func
    raise TypeError(f"srcgrad: cannot differentiate a call to {func!r}: it has no derivative "
                    "rule and no Python source (register a rule with srcgrad.defrule)")
