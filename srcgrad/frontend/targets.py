"""What a differentiable callable is: the plain function and the object it is bound to,
and the parameters ``wrt`` counts (used by every API and by the dependency sweep)."""

from __future__ import annotations

import functools
import inspect
import types

from srcgrad.frontend.freshness import own_signature


def _target(f):
    """(plain function, bound self or None) for a function, method or decorated function."""
    f = getattr(f, "__srcgrad_function__", f)
    if getattr(f, "__srcgrad_custom__", False):   # sg.custom_vjp / custom_jvp / checkpoint
        return f, None
    if isinstance(f, types.MethodType):
        return f.__func__, f.__self__
    if isinstance(f, functools.partial):
        raise TypeError("srcgrad cannot differentiate a functools.partial; use a lambda or def")
    if not isinstance(f, types.FunctionType):
        call = next((vars(k)["__call__"] for k in type(f).__mro__ if "__call__" in vars(k)), None)
        if isinstance(call, types.FunctionType):
            return call, f
        raise TypeError(f"srcgrad differentiates Python functions; got {type(f).__name__}")
    return f, None


def parameter_names(fn, bound):
    """Positional parameters (``wrt`` indices count these, after ``self`` for a method)
    followed by keyword-only ones (reachable by name)."""
    kinds = inspect.Parameter
    signature = own_signature(fn).parameters.values()
    params = [p.name for p in signature if p.kind in (kinds.POSITIONAL_ONLY,
                                                       kinds.POSITIONAL_OR_KEYWORD)]
    params = params[1:] if bound is not None else params
    return params + [p.name for p in signature if p.kind == kinds.KEYWORD_ONLY]
