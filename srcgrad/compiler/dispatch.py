"""What a call through a value denotes, found when it runs: the runtime half of call
resolution (``modes.calls`` is the compile-time half).

Generated code calls ``_sg.dynamic_forward(func, owner_varies, *args)`` (and
``_sg.dynamic_jvp`` in forward mode) where the callee is a value: ``fn(x)`` with ``fn``
a parameter, ``FNS[0](x)``, ``xp.sum(x)`` with ``xp`` not proven an ndarray,
``self.layer(x)``. ``resolve`` maps that value to a Python function to compile:

- ``functools.partial``: its function, its arguments first;
- a rule-table (or non-differentiable) function, a ufunc, ``np.sum`` reached through a
  module or namespace: a one-line wrapper ``def sin_call(_a0): return _callee(_a0)``
  compiled like user code, so the rule table applies;
- an ndarray's method (``x.sum``, ``np.ndarray.sum``): a wrapper calling the NumPy
  function with the same semantics (``np.sum(x, ...)``); a list's or tuple's
  ``count``/``index``: a wrapper over a non-differentiable call;
- a bound method, a user function, an object whose class defines ``__call__``: that
  Python function (the object is its first argument);
- anything else: a ``MissingRuleError`` naming it.

The wrappers' source is made and loaded in ``compiler.call_wrappers``.

Before: ``fn`` is ``np.tanh`` at run time::

    y, fn_saved = _sg.dynamic_forward(fn, False, x)

After (what runs): ``tanh_call_forward(x)`` of the wrapper's compiled unit, whose
backward is the ``np.tanh`` row of the rule table.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import sys
import types

import numpy as np

from srcgrad.codegen import pickling
from srcgrad.compiler.call_wrappers import (
    _ArrayMethod,
    _backward_wrapper,
    _forward_wrapper,
    _Replace,
    _unit_wrapper,
    _wrapper,
)
from srcgrad.errors import MissingRuleError, TransformError
from srcgrad.rules import REGISTRY
from srcgrad.rules.methods import ARRAY_METHODS, NONDIFF_METHODS
from srcgrad.rules.registry import qualified_name

_DICT_METHODS = frozenset({"get", "values", "items", "keys"})   # (of a dict: its rows)
_ARRAY_TYPES = (np.ndarray, np.generic)
# Methods whose outputs are locally constant in the object's values (``tolist`` carries
# them: no derivative is assumed for it here).
CONSTANT_METHODS = NONDIFF_METHODS - {"tolist", "keys"}
_SEQUENCE_TYPES = (list, tuple, str, bytes)
# Values that never carry a derivative (no cotangent is asked for them).
_INERT = (bool, int, str, bytes, type(None), types.ModuleType, types.FunctionType,
          types.BuiltinFunctionType, types.MethodType, type, functools.partial, np.ufunc,
          slice, range, np.dtype)
# What a tuple, list or dict may hold and still carry no derivative (a bound method
# in one carries its object's: ``(x.ravel, True)`` are the arguments of a call differentiated
# again).
_INERT_ITEMS = (bool, int, str, bytes, type(None), slice, range, np.dtype, type,
                types.ModuleType)
_INERT_DEPTH = 32


def inert(value):
    """Whether ``value`` carries no derivative: an ``_INERT`` value, or a tuple, list or
    dict of ``_INERT_ITEMS`` only, nested (a shape ``(20, 6)``, the ``(None,)`` tangents
    of a call whose argument has none, ``()``): no cotangent or tangent is asked for it."""
    return isinstance(value, _INERT) or _inert_items(value, 0)


def _inert_items(value, depth):
    if isinstance(value, _INERT_ITEMS):
        return True
    if depth >= _INERT_DEPTH:   # (taken to carry one)
        return False
    if type(value) in (tuple, list):
        return all(_inert_items(item, depth + 1) for item in value)
    if type(value) is dict:
        return all(_inert_items(item, depth + 1) for item in value.values())
    return False


@dataclasses.dataclass
class Callee:
    """A call through a value, resolved: run ``fn(*values, **kwargs)``; ``slots[i]`` is
    the position of ``values[i]``'s cotangent among the caller's (None: not asked)."""

    fn: types.FunctionType
    values: tuple
    kwargs: dict
    slots: tuple
    asked: tuple = ()   # keywords of the call whose cotangents are asked for

    def wrt(self, carried=frozenset()):
        """(parameter names to differentiate, their slots): a slot is a position among
        the caller's cotangents, a keyword's name (str), or for the callee's ``**kwargs``
        parameter the tuple of the keywords it receives. ``carried``: the slots whose
        values carry a tangent (forward mode knows which): a Python int there is
        differentiated, as the float it converts to, where an int is otherwise taken
        for a constant (a shape, an axis)."""
        names = _positional_names(self.fn)
        chosen = [(i, slot) for i, (value, slot) in enumerate(zip(self.values, self.slots))
                  if slot is not None and (not inert(value)
                                           or type(value) is int and slot in carried)]
        if any(i >= len(names) for i, _ in chosen):
            raise TransformError(f"srcgrad: {self.fn.__qualname__} gets more positional "
                                 "arguments than it names; a value passed through *args "
                                 "cannot be differentiated")
        chosen = [(names[i], slot) for i, slot in chosen] + self._keyword_wrt()
        return tuple(n for n, _ in chosen), tuple(s for _, s in chosen)

    def _keyword_wrt(self):
        asked = [k for k in self.asked if not inert(self.kwargs.get(k))]
        if not asked:
            return []
        parameters = inspect.signature(self.fn).parameters
        kinds = inspect.Parameter
        packed = next((p.name for p in parameters.values() if p.kind == kinds.VAR_KEYWORD),
                      None)
        named = [(k, k) for k in asked if k in parameters
                 and parameters[k].kind not in (kinds.POSITIONAL_ONLY, kinds.VAR_KEYWORD)]
        rest = tuple(k for k in asked if all(k != n for n, _ in named))
        if rest and packed is None:
            raise TypeError(f"{self.fn.__qualname__}() got an unexpected keyword argument "
                            f"{rest[0]!r}")
        return named + ([(packed, rest)] if rest else [])


def resolve(func, owner_varies, args, kwargs, keywords=False):
    """The ``Callee`` for ``func(*args, **kwargs)``; the caller's cotangents are laid out
    as ``[the method's object, if owner_varies] + args`` (and, with ``keywords``, one per
    keyword of the call)."""
    base = 1 if owner_varies else 0
    inputs = [(arg, base + i) for i, arg in enumerate(args)]
    callee = _resolve(func, inputs, dict(kwargs), 0 if owner_varies else None)
    if keywords and kwargs:
        callee.asked = tuple(kwargs)
    return callee


def _resolve(func, inputs, kwargs, owner_slot):
    meta = _META.get(_key(func))
    if meta is not None:   # generated code being differentiated again
        return meta(func, inputs, kwargs)
    if isinstance(func, pickling.Derivative):   # sg.grad(f), sg.jvp(f)...: generated code
        return _derivative(func, inputs, kwargs, owner_slot)
    nested = getattr(func, "__srcgrad_callee__", None) \
        if isinstance(func, types.FunctionType) else None
    if nested is not None:   # gradients_function(f): what to compile in its place
        return _resolve(nested(), inputs, kwargs, owner_slot)   # (see eager.nesting)
    if isinstance(func, functools.partial):
        lead = [(arg, None) for arg in func.args]
        return _resolve(func.func, lead + inputs, {**func.keywords, **kwargs}, None)
    if getattr(func, "__srcgrad_custom__", False):
        return _callee(func, inputs, kwargs)
    if _known(func):
        return _callee(_wrapper(func, len(inputs), tuple(kwargs)), inputs, kwargs)
    method = _duck_array_method(func)
    if method is not None:
        return _callee(_wrapper(method, len(inputs) + 1, tuple(kwargs)),
                       [(func.__self__, owner_slot)] + inputs, kwargs)
    replaced = _namedtuple_replace(func)
    if replaced is not None:
        return _callee(_wrapper(replaced, len(inputs) + 1, tuple(kwargs)),
                       [(func.__self__, owner_slot)] + inputs, kwargs)
    if isinstance(func, types.MethodType):
        return _resolve(func.__func__, [(func.__self__, owner_slot)] + inputs, kwargs, None)
    if isinstance(func, types.FunctionType):
        if _is_library(func):
            raise _missing(func)
        if (func.__module__ or "").startswith("srcgrad.runtime"):
            raise _runtime_function(func)
        if len(inputs) > len(_positional_names(func)):   # some go to its *args: called
            return _callee(_wrapper(func, len(inputs), tuple(kwargs)), inputs, kwargs)
        return _callee(func, inputs, kwargs)
    method = _builtin_method(func)
    if method is not None:
        return _callee(_wrapper(method, len(inputs) + 1, tuple(kwargs)),
                       [(func.__self__, owner_slot)] + inputs, kwargs)
    method = _array_method_descriptor(func)
    if method is not None:
        return _callee(_wrapper(method, len(inputs), tuple(kwargs)), inputs, kwargs)
    call = _python_call(func)
    if call is not None:
        return _callee(call, [(func, owner_slot)] + inputs, kwargs)
    raise _missing(func)


def _derivative(func, inputs, kwargs, owner_slot):
    """A derivative function called inside code being differentiated: the generated
    function it calls, when that takes the same arguments (``sg.grad``, ``sg.jvp``...);
    a TransformError for one that wraps generated code in srcgrad's own Python."""
    target = pickling.unwrap(func)
    if func.args or func.keywords or (target.__module__ or "").startswith("srcgrad."):
        builder = func.recipe.builder.rsplit(".", 1)[1]
        primal = getattr(func.recipe.primal, "__qualname__", repr(func.recipe.primal))
        raise TransformError(
            f"srcgrad cannot differentiate through sg.{builder}({primal}) called inside a "
            "function being differentiated (yet); sg.grad, sg.value_and_grad, sg.jvp, "
            "sg.hvp, and sg.jacobian, sg.hessian or sg.elementwise_grad w.r.t. one argument, "
            "of a function without defaults or *args can be", *_user_location())
    return _resolve(target, inputs, kwargs, owner_slot)


def _user_location():
    """``(file, line, None, function)`` of the user's line that the innermost generated
    code running now came from, or Nones."""
    from srcgrad.compiler import debug

    frame = sys._getframe(1)
    while frame is not None:
        function = frame.f_globals.get(frame.f_code.co_name)
        unit = getattr(function, "unit", None)
        if unit is not None and frame.f_code.co_filename == getattr(unit, "filename", None):
            found = debug.origin(unit, frame.f_lineno)
            if found is not None:
                return found[0], found[1], None, unit.fn.__name__
        frame = frame.f_back
    return None, None, None, None


def _key(func):
    try:
        return hash(func) and func
    except TypeError:
        return None


def _dispatched_forward(func, inputs, kwargs):
    """``_sg.dynamic_forward(F, flag, *args)`` in generated code: a wrapper around the
    generated forward that ``F`` resolves to now, returning what ``dynamic_forward``
    returns (so the matching ``dynamic_backward`` call resolves below)."""
    from srcgrad import runtime
    from srcgrad.analysis import escapes
    from srcgrad.compiler import reverse as compiler

    (target, target_slot), (flag, _), *rest = inputs
    keywords = func in (runtime.dynamic_forward_keywords, runtime.dynamic_forward_eager_keywords)
    inner = resolve(target, flag, [v for v, _ in rest], kwargs, keywords)
    wrt, inner_slots = inner.wrt()
    eager = func in (runtime.dynamic_forward_eager, runtime.dynamic_forward_eager_keywords)
    unit = compiler.reverse_unit(inner.fn, wrt, eager=eager)
    escapes.check_callee(unit)
    base = 1 if flag else 0
    outer = [target_slot if (flag and s == 0) else (None if s is None else rest[s - base][1])
             for s in inner.slots]
    count = len(rest) + base
    key = ("forward", tuple(inner_slots), count, len(inner.values), tuple(inner.kwargs))
    wrapper = _unit_wrapper(unit, key, lambda: _forward_wrapper(unit, inner_slots, count,
                                                                 len(inner.values),
                                                                 tuple(inner.kwargs)))
    return Callee(wrapper, inner.values, inner.kwargs, tuple(outer))


def _dispatched_backward(func, inputs, kwargs):
    """``_sg.dynamic_backward(saved, g)`` in generated code: a wrapper around the
    generated backward of the unit that ``saved`` came from."""
    from srcgrad import runtime

    (saved, saved_slot), (g, g_slot) = inputs
    unit, _, slots, count = saved
    keywords = func is runtime.dynamic_backward_keywords
    key = ("backward", tuple(slots), count, keywords)
    wrapper = _unit_wrapper(unit, key, lambda: _backward_wrapper(unit, slots, count, keywords))
    return Callee(wrapper, (saved, g), {}, (saved_slot, g_slot))


def _callee(fn, inputs, kwargs):
    return Callee(fn, tuple(v for v, _ in inputs), kwargs, tuple(s for _, s in inputs))


def _known(func):
    try:
        return REGISTRY.knows(func) or _is_random(func)
    except TypeError:   # unhashable
        return False


def _is_random(obj):
    module = getattr(obj, "__module__", "") or ""
    owner = getattr(obj, "__self__", None)
    random = sys.modules.get("numpy.random")   # (not imported: no Generator exists)
    return module.startswith("numpy.random") or random is not None and isinstance(
        owner, (random.Generator, random.RandomState))


def _is_library(fn):
    return (fn.__module__ or "").split(".")[0] in ("numpy", "scipy", "math", "builtins")


def _namedtuple_replace(func):
    """``nt._replace`` bound to a NamedTuple, the method ``collections.namedtuple`` made
    (checked on each call): ``_Replace(type(nt))``, else None."""
    owner = getattr(func, "__self__", None)
    if not isinstance(func, types.MethodType) or not isinstance(owner, tuple) \
            or not hasattr(type(owner), "_fields"):
        return None
    method = func.__func__
    if getattr(method, "__name__", None) != "_replace" \
            or getattr(method, "__module__", None) != "collections" \
            or method is not getattr(type(owner), "_replace", None):
        return None
    return _Replace(type(owner))


def _builtin_method(func):
    """``x.sum`` of an ndarray -> ``("sum", np.sum)``; ``[1, 2].count`` -> a constant."""
    owner = getattr(func, "__self__", None)
    name = getattr(func, "__name__", None)
    if not isinstance(func, (types.BuiltinMethodType, types.MethodWrapperType)) or name is None:
        return None
    if isinstance(owner, _ARRAY_TYPES) and (name in ARRAY_METHODS or name in CONSTANT_METHODS):
        return _ArrayMethod(name)
    if isinstance(owner, _SEQUENCE_TYPES) and name in CONSTANT_METHODS:
        return _ArrayMethod(name)
    if type(owner) is dict and name in _DICT_METHODS:   # d.get: its row (keys: none)
        return _ArrayMethod(name)
    return None


# Libraries whose array methods are their NumPy functions (``x.sum(axis=0)`` is
# ``np.sum(x, axis=0)``, which NumPy dispatches to the library through
# ``__array_function__``): such a method is differentiated as that function.
DUCK_ARRAY_LIBRARIES = frozenset({"dask"})


def _duck_array_method(func):
    """``x.sum`` of a dask array -> the same as an ndarray's ``x.sum`` (checked on each
    call: the object's type and the method's own module)."""
    from srcgrad.runtime import is_duck_array

    owner, name = getattr(func, "__self__", None), getattr(func, "__name__", None)
    if not isinstance(func, types.MethodType) or not is_duck_array(owner):
        return None
    library = (getattr(func.__func__, "__module__", None) or "").split(".")[0]
    if library in DUCK_ARRAY_LIBRARIES and type(owner).__module__.split(".")[0] == library \
            and (name in ARRAY_METHODS or name in CONSTANT_METHODS):
        return _ArrayMethod(name)
    return None


def _array_method_descriptor(func):
    """``np.ndarray.sum`` (``type(x).sum``) -> the same as ``x.sum``."""
    if getattr(func, "__objclass__", None) in (np.ndarray, np.generic):
        name = func.__name__
        if name in ARRAY_METHODS or name in CONSTANT_METHODS:
            return _ArrayMethod(name)
    return None


def _python_call(obj):
    """The Python ``__call__`` of ``obj``'s class, or None."""
    if isinstance(obj, type):
        return None
    call = next((vars(k)["__call__"] for k in type(obj).__mro__ if "__call__" in vars(k)), None)
    return call if isinstance(call, types.FunctionType) else None


def _missing(func):
    return MissingRuleError(
        f"cannot differentiate a call to {_describe(func)} (reached through a value): it "
        "has no derivative rule and no Python source. Register one with "
        "srcgrad.defrule, or wrap it with srcgrad.custom_vjp")


def _runtime_function(func):
    """A function of srcgrad's runtime reached through a value in code being
    differentiated (a guard's hand-over to a forward sweep regenerated for what its names
    denote now, ``_sg.regenerated``): its source is never compiled."""
    return TransformError(
        f"srcgrad cannot differentiate through its own runtime function "
        f"`{func.__qualname__}` called through a value: the names this derivative's code "
        "was generated from denote other objects now, in code differentiated again; call "
        "srcgrad again on a fresh function (or reload its module)", *_user_location())


def _describe(func):
    if isinstance(func, (types.FunctionType, types.BuiltinFunctionType, np.ufunc)):
        return f"`{qualified_name(func)}`"
    return f"{func!r} (a {type(func).__qualname__})"


def _meta_table():
    from srcgrad import runtime
    from srcgrad.compiler import dispatch_properties
    from srcgrad.compiler.dispatch_jvp import dispatched_jvp
    from srcgrad.compiler.dispatch_odeint import dispatched_adjoints, dispatched_tangent

    return {**dispatch_properties.meta_table(),
            runtime.dynamic_forward: _dispatched_forward,
            runtime.dynamic_forward_eager: _dispatched_forward,
            runtime.dynamic_forward_keywords: _dispatched_forward,
            runtime.dynamic_forward_eager_keywords: _dispatched_forward,
            runtime.dynamic_backward: _dispatched_backward,
            runtime.dynamic_backward_keywords: _dispatched_backward,
            runtime.dynamic_jvp: dispatched_jvp,
            runtime.dynamic_jvp_keywords: dispatched_jvp,
            runtime.odeint_adjoints: dispatched_adjoints,
            runtime.odeint_tangent: dispatched_tangent}


_META = _meta_table()


def _positional_names(fn):
    code = fn.__code__
    return code.co_varnames[:code.co_posonlyargcount + code.co_argcount
                            - code.co_posonlyargcount]
