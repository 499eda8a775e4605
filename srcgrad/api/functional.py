"""The functional API (JAX / Tangent style): grad, value_and_grad, vjp, source.

Every function here resolves ``wrt`` once, asks the compiler for the generated unit
(cached), and hands back generated code: ``sg.grad(f)`` *is* the generated ``f_grad``.
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Sequence

from srcgrad.api import has_aux as aux
from srcgrad.api import partials, vararg_wrt
from srcgrad.api.tracebacks import api_boundary
from srcgrad.api.typing import Function, Wrt
from srcgrad.codegen import pickling
from srcgrad.codegen.pickling import derivative
from srcgrad.compiler import debug
from srcgrad.compiler import reverse as compiler
from srcgrad.errors import check_output
from srcgrad.frontend import transforms
from srcgrad.frontend.freshness import own_signature
from srcgrad.frontend.targets import _target, parameter_names
from srcgrad.runtime.wrt_values import check_shaped_like


def _varargs_name(fn):
    """The name of ``fn``'s ``*args`` parameter (``wrt`` reaches it by name), or None."""
    return next((p.name for p in own_signature(fn).parameters.values()
                 if p.kind == inspect.Parameter.VAR_POSITIONAL), None)


def resolve_wrt(fn, wrt, bound=None):
    """``wrt`` (index, name, or tuple of them) as parameter names: a str or a tuple."""
    params = parameter_names(fn, bound)
    if isinstance(wrt, (tuple, list)):
        return tuple(_one_param(fn, params, w) for w in wrt)
    return _one_param(fn, params, wrt)


def _one_param(fn, params, w):
    if isinstance(w, bool) or not isinstance(w, (int, str)):
        raise TypeError(f"wrt must be an int, a parameter name, or a tuple of them; got {w!r}")
    varargs = _varargs_name(fn)
    if isinstance(w, int):
        if not -len(params) <= w < len(params):
            hint = f"; wrt={varargs!r} differentiates w.r.t. the tuple of arguments " \
                f"*{varargs} receives" if varargs else ""
            raise ValueError(f"wrt={w} is out of range: {fn.__name__} has {len(params)} "
                             f"positional parameter(s) {tuple(params)}{hint}")
        return params[w]
    if w == varargs:   # the tuple of extra positional arguments: a tuple of gradients
        return w
    if w not in params:
        raise ValueError(f"wrt={w!r} is not a parameter of {fn.__name__}{tuple(params)}")
    return w


class _DefaultWrt(int):
    """``wrt``'s default, 0, told apart from an explicit 0 (``argnums`` replaces it)."""

    def __repr__(self):
        return "0"

    def __reduce__(self):   # pickles as the name, so the receiver's ``is FIRST`` holds
        return "FIRST"


FIRST = _DefaultWrt(0)


def wrt_or_argnums(wrt, argnums, argnum=None):
    """``wrt``, or JAX's ``argnums`` (indices only) or autograd's ``argnum`` (an int, a
    tuple or a list of them) in its place."""
    if argnum is not None:
        if argnums is not None:
            raise TypeError("give either argnum (autograd's name) or argnums (JAX's), not both")
        argnums = argnum
    if argnums is None:
        return int(wrt) if wrt is FIRST else wrt
    if wrt is not FIRST:
        raise TypeError("give either wrt or argnums, not both (argnums is wrt's alias for "
                        "code written for JAX)")
    items = argnums if isinstance(argnums, (tuple, list)) else (argnums,)
    if any(isinstance(a, bool) or not isinstance(a, int) for a in items):
        raise TypeError(f"argnums takes an int or a tuple of ints; got {argnums!r} "
                        "(use wrt= to name parameters)")
    return tuple(argnums) if isinstance(argnums, (tuple, list)) else argnums


def _unit(f, wrt):
    fn, bound = _target(f)
    return compiler.reverse_unit(fn, resolve_wrt(fn, wrt, bound)), bound


def into_varargs(f, wrt):
    """A ``vararg_wrt.VarargWrt`` when an int in ``wrt`` is a position in ``f``'s
    ``*args``, else None."""
    fn, bound = _target(f)
    return vararg_wrt.split(fn, bound, wrt, lambda fn, w, bound: _one_param(
        fn, parameter_names(fn, bound), w))


def _picking(function, pick, where):
    """``function`` with its gradient(s) (at ``where``: "all", "last" or "aux") picked."""
    if pick is None:
        return function

    def picked(*args, **kwargs):
        result = function(*args, **kwargs)
        if where == "all":
            return pick(result)
        if where == "aux":
            return pick(result[0]), result[1]
        return result[0], pick(result[1])

    for name in ("source", "unit", "__name__", "__qualname__", "__doc__"):
        if hasattr(function, name):
            setattr(picked, name, getattr(function, name))
    return picked


def _bind(function, bound):
    if bound is None:
        return function
    method = types.MethodType(function, bound)
    return method


@api_boundary
def grad(f: Function, wrt: Wrt = FIRST, check_nan: bool = False, has_aux: bool = False, *,
         argnums: int | Sequence[int] | None = None,
         argnum: int | Sequence[int] | None = None) -> Function:
    """The gradient of ``f``: a function with ``f``'s signature returning the gradient
    of ``f``'s scalar output with respect to the argument(s) named by ``wrt``.

    ``wrt`` names what to differentiate with respect to: a positional index (``0``, the
    default, is the first argument; for a method, the first after ``self``), a parameter
    name (``"w"``, keyword-only parameters included), or a tuple of them (``(0, "b")``).
    ``argnums`` is JAX's name for it and ``argnum`` autograd's (indices only; give one).

    Returns the generated gradient function (``sg.source(df)`` shows it; it pickles). Its
    result is shaped like the argument: an array for an array, a float for a float, the
    same container for a tuple/list/dict/NamedTuple/dataclass argument; a tuple of
    gradients for a tuple ``wrt``. ``has_aux=True``: ``f`` returns ``(output, aux)`` and
    the gradient function returns ``(gradient, aux)``. ``check_nan=True`` raises
    ``FloatingPointError`` at the first user line whose adjoint is NaN or inf.
    Raises ``TransformError`` (``MissingRuleError``) naming the user's line when ``f``
    uses something srcgrad cannot differentiate.
    """
    resolved = wrt_or_argnums(wrt, argnums, argnum)
    if partials.is_partial(f):
        return partials.derivative_of_partial(grad, f, resolved, check_nan=check_nan,
                                              has_aux=has_aux)
    if argnum is not None:   # recorded (pickled) as the wrt it is
        wrt, argnums = resolved, None
    varargs = into_varargs(f, resolved)
    unit, bound = _unit(f, varargs.compiled if varargs else resolved)
    pick = varargs.pick if varargs else None
    if has_aux:
        function = _picking(aux.grad_with_aux(_bind(unit.forward, bound),
                                              _backward(unit, check_nan)), pick, "aux")
    else:
        function = _picking(_bind(debug.nan_checked(unit, "grad") if check_nan
                                  else unit.grad, bound), pick, "all")
    return derivative(function, "srcgrad.api.functional.grad", f, wrt=wrt, check_nan=check_nan,
                      has_aux=has_aux, argnums=argnums)


@api_boundary
def value_and_grad(f: Function, wrt: Wrt = FIRST, check_nan: bool = False,
                   has_aux: bool = False, *,
                   argnums: int | Sequence[int] | None = None,
                   argnum: int | Sequence[int] | None = None) -> Function:
    """A function with ``f``'s signature returning ``(value, gradient)`` from one forward
    and one backward sweep; with ``has_aux=True``, ``((value, aux), gradient)``.

    ``wrt`` names what to differentiate with respect to: a positional index (``0``, the
    default, is the first argument; for a method, the first after ``self``), a parameter
    name (``"w"``, keyword-only parameters included), or a tuple of them (``(0, "b")``).
    ``argnums`` is JAX's name for it and ``argnum`` autograd's (indices only; give one).

    The gradient is as ``grad`` returns it; ``check_nan`` as for ``grad``.
    """
    resolved = wrt_or_argnums(wrt, argnums, argnum)
    if partials.is_partial(f):
        return partials.derivative_of_partial(value_and_grad, f, resolved,
                                              check_nan=check_nan, has_aux=has_aux)
    if argnum is not None:   # recorded (pickled) as the wrt it is
        wrt, argnums = resolved, None
    varargs = into_varargs(f, resolved)
    unit, bound = _unit(f, varargs.compiled if varargs else resolved)
    if has_aux:
        function = aux.value_and_grad_with_aux(_bind(unit.forward, bound),
                                               _backward(unit, check_nan))
    else:
        checked = check_nan and debug.nan_checked(unit, "value_and_grad")
        function = _bind(checked or unit.value_and_grad, bound)
    function = _picking(function, varargs.pick if varargs else None, "last")
    return derivative(function, "srcgrad.api.functional.value_and_grad", f, wrt=wrt,
                      check_nan=check_nan, has_aux=has_aux, argnums=argnums)


@api_boundary
def vjp(f: Function, wrt: Wrt = FIRST, has_aux: bool = False, *,
        argnums: int | Sequence[int] | None = None,
        argnum: int | Sequence[int] | None = None) -> Function:
    """The vector-Jacobian product of ``f`` (any output, not only a scalar).

    Returns a function with ``f``'s signature returning ``(value, backward)``;
    ``backward(cotangent)``, the cotangent shaped like ``value`` (a pytree for a pytree
    output), runs the generated backward sweep and gives the gradient(s) of
    ``<cotangent, f(...)>`` w.r.t. ``wrt`` (a tuple of them for a tuple ``wrt``). It may
    be called several times. With ``has_aux=True``, ``(value, backward, aux)``.

    ``wrt`` names what to differentiate with respect to: a positional index (``0``, the
    default, is the first argument; for a method, the first after ``self``), a parameter
    name (``"w"``, keyword-only parameters included), or a tuple of them (``(0, "b")``).
    ``argnums`` is JAX's name for it and ``argnum`` autograd's (indices only; give one).
    """
    resolved = wrt_or_argnums(wrt, argnums, argnum)
    if partials.is_partial(f):
        return partials.derivative_of_partial(vjp, f, resolved, has_aux=has_aux)
    if argnum is not None:   # recorded (pickled) as the wrt it is
        wrt, argnums = resolved, None
    varargs = into_varargs(f, resolved)
    if varargs is not None and has_aux:
        raise ValueError("vjp with has_aux=True takes wrt among the named parameters; "
                         f"use wrt={varargs.varargs!r} for the tuple *{varargs.varargs}")
    unit, bound = _unit(f, varargs.compiled if varargs else resolved)
    forward, backward = _bind(unit.forward, bound), unit.backward
    if varargs is not None:
        backward = _picking(backward, varargs.pick, "all")
    if has_aux:
        vjp_fn = aux.vjp_with_aux(forward, backward)
    else:
        recipe = pickling.recipe("srcgrad.api.functional.vjp_backward", f, resolved)

        def vjp_fn(*args, **kwargs):
            value, saved = forward(*args, **kwargs)
            check_output(value, unit.fn)
            return value, pickling.Derivative(
                functools.partial(_checked_backward, backward, value, saved),
                recipe.with_args(saved, value))

    vjp_fn.source = unit.source
    vjp_fn.unit = unit
    return derivative(vjp_fn, "srcgrad.api.functional.vjp", f, wrt=wrt, has_aux=has_aux,
                      argnums=argnums)


def vjp_backward(f, wrt, saved, value=None):
    """``vjp``'s ``backward`` function for the values ``saved`` by a forward sweep that
    gave ``value`` (how a pickled one is rebuilt)."""
    varargs = into_varargs(f, wrt)
    unit, _ = _unit(f, varargs.compiled if varargs else wrt)
    backward = unit.backward
    if varargs:
        backward = _picking(backward, varargs.pick, "all")
    return functools.partial(_checked_backward, backward, value, saved)


def _checked_backward(backward, value, saved, cotangent):
    """``backward(saved, cotangent)`` once ``cotangent`` is shaped like ``value``."""
    check_shaped_like(cotangent, value, "the cotangent", "the function's output")
    return backward(saved, cotangent)


def _backward(unit, check_nan):
    return debug.nan_checked(unit, "backward") if check_nan else unit.backward


def source(df: Function, lines: bool = False) -> str:
    """The generated Python source behind a derivative function, as text: ``df`` is
    anything srcgrad returned (``grad``, ``value_and_grad``, ``vjp``, ``jvp``, ``hvp``,
    a gradient of a gradient). Raises ``TypeError`` for any other function.

    ``lines=True``: before each block of generated lines, a comment quoting the line of
    the user's function it came from (``# model.py:12: h = helper(x, w)``)."""
    df = getattr(df, "__func__", df)
    text = getattr(df, "source", None)
    if text is None:
        raise TypeError(f"{df!r} is not a function generated by srcgrad")
    if lines:
        from srcgrad.compiler.citations import cite_user_lines

        return cite_user_lines(text, getattr(df, "unit", None))
    return text

transforms.register(globals())   # sg.grad called in a differentiated function
