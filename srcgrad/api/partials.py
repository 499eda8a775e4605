"""A ``functools.partial`` differentiated (autograd's ``grad(partial(f, y=1))``).

The partial's bound arguments are constants; its remaining parameters, numbered and
named as ``inspect.signature(partial)`` shows them, are what ``wrt`` selects. The
derivative is ``f``'s own generated derivative w.r.t. the parameter(s) by name, called
with the bound arguments put back in: ``partial(df, *bound_args, **bound_keywords)``.

Only what is proven to be a partial is taken: an instance of ``functools.partial``
itself (not a subclass, whose ``__call__`` may do anything) whose ``func`` is a plain
Python function or a derivative srcgrad returned. Any other callable is refused with a
``TransformError``.
"""

from __future__ import annotations

import functools
import inspect
import types

from srcgrad.codegen.pickling import Derivative
from srcgrad.errors import TransformError

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def is_partial(f):
    """True when ``f`` is a ``functools.partial`` of any kind (checked before use), other
    than the derivatives srcgrad returns (``Derivative``, which the compiler reads)."""
    return isinstance(f, functools.partial) and not isinstance(f, Derivative)


def _checked(f):
    if type(f) is not functools.partial:
        raise TransformError(
            f"srcgrad differentiates a functools.partial itself, not the subclass "
            f"{type(f).__qualname__} (its __call__ may not call func with the bound "
            "arguments); use a def or lambda")
    if not isinstance(f.func, (types.FunctionType, Derivative)):
        raise TransformError(
            f"srcgrad differentiates a functools.partial of a Python function; this one "
            f"binds arguments of {type(f.func).__name__} {f.func!r}; use a def or lambda")
    return f


def _one(f, params, keyword_only, w):
    if isinstance(w, bool) or not isinstance(w, (int, str)):
        raise TypeError(f"wrt must be an int, a parameter name, or a tuple of them; got {w!r}")
    if isinstance(w, int):
        if not -len(params) <= w < len(params):
            raise ValueError(f"wrt={w} is out of range: the partial of {f.func.__name__} has "
                             f"{len(params)} positional parameter(s) {tuple(params)}")
        return params[w]
    if w not in params and w not in keyword_only:
        raise ValueError(f"wrt={w!r} is not a parameter of the partial of {f.func.__name__}"
                         f"{tuple(params + keyword_only)} (its positionally bound "
                         "arguments are constants)")
    return w


def resolve(f, wrt):
    """``wrt`` given for the partial ``f`` as parameter names of ``f.func``."""
    parameters = inspect.signature(f).parameters.values()
    params = [p.name for p in parameters if p.kind in _POSITIONAL]
    keyword_only = [p.name for p in parameters if p.kind == inspect.Parameter.KEYWORD_ONLY]
    if isinstance(wrt, (tuple, list)):
        return tuple(_one(f, params, keyword_only, w) for w in wrt)
    return _one(f, params, keyword_only, wrt)


def derivative_of_partial(builder, f, wrt, **options):
    """``builder(f.func, names, **options)`` called with ``f``'s bound arguments: the
    derivative of the partial ``f`` w.r.t. ``wrt`` (indices count its own parameters)."""
    f = _checked(f)
    derivative = builder(f.func, resolve(f, wrt), **options)
    result = functools.partial(derivative, *f.args, **f.keywords)
    for name in ("source", "unit"):
        if hasattr(derivative, name):
            setattr(result, name, getattr(derivative, name))
    return result
