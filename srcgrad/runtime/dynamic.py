"""Calls whose callee is known only when they run: ``self.layer(x)``, ``net(x)``,
``fn(x)`` with ``fn`` a parameter, ``FNS[0](x)``, ``xp.sum(x)`` with ``xp`` a value.

The generated code calls ``dynamic_forward(func, owner_varies, *args)``: the callee value
is resolved (``srcgrad.compiler.dispatch``: a rule-table function, a partial, an ndarray method, a
user function or method, an object with ``__call__``), compiled w.r.t. the arguments
that may carry derivatives (and the method's object when ``owner_varies``) and its
generated forward run; ``dynamic_backward(saved, g)`` runs the matching backward and
returns one cotangent per input (the object first when ``owner_varies``).
``dynamic_jvp(func, owner_dot, args, tangents)`` is the forward-mode twin. Generated code
that makes such calls needs the srcgrad compiler at run time, unlike the rest of the
runtime: the runtime never imports it; the compiler registers its entry points here
(``register_compiler``) when it loads, and the package loads it on first need.
"""

from __future__ import annotations

import threading
import types

import srcgrad

__all__ = ["Redirected", "call_method", "dynamic_backward", "dynamic_backward_keywords",
           "dynamic_forward", "dynamic_forward_eager", "dynamic_forward_eager_keywords",
           "dynamic_forward_keywords", "dynamic_jvp", "dynamic_jvp_keywords",
           "keyword_part", "keyword_tangents", "merged_keywords", "method_owner", "regenerated",
           "register_compiler", "sorted_order", "super_function"]

_compiler_entry_points = None


def register_compiler(entry_points):
    """Called by the compiler as it loads: ``entry_points`` has ``resolve``,
    ``reverse_unit``, ``forward_unit``, ``call_jvp`` and ``check_callee``."""
    global _compiler_entry_points
    _compiler_entry_points = entry_points


def _compiler():
    if _compiler_entry_points is None:
        srcgrad._load_compiler()   # registers the entry points
    return _compiler_entry_points


def dynamic_forward(func, owner_varies, /, *args, **kwargs):
    return _forward(func, owner_varies, args, kwargs, eager=False)


def dynamic_forward_eager(func, owner_varies, /, *args, **kwargs):
    return _forward(func, owner_varies, args, kwargs, eager=True)


def dynamic_forward_keywords(func, owner_varies, /, *args, **kwargs):
    """``dynamic_forward`` differentiating the keyword arguments too (its backward is
    ``dynamic_backward_keywords``)."""
    return _forward(func, owner_varies, args, kwargs, eager=False, keywords=True)


def dynamic_forward_eager_keywords(func, owner_varies, /, *args, **kwargs):
    return _forward(func, owner_varies, args, kwargs, eager=True, keywords=True)


def dynamic_backward(saved, g):
    unit, inner, slots, count = saved
    grads = unit.backward(inner, g)
    out = [0.0] * count
    for slot, grad in zip(slots, grads):
        if type(slot) is int:
            out[slot] = grad
    return tuple(out)


def dynamic_backward_keywords(saved, g):
    """``(positional cotangents, {keyword: cotangent})`` of a call with keywords that
    carry derivatives (``f(x, b=y)``, ``f(x, **kw)``): a keyword the callee does not
    differentiate is missing from the dict (a zero)."""
    unit, inner, slots, count = saved
    grads = unit.backward(inner, g)
    out, keywords = [0.0] * count, {}
    for slot, grad in zip(slots, grads):
        if type(slot) is int:
            out[slot] = grad
        elif type(slot) is str:
            keywords[slot] = grad
        elif grad is not None:   # the callee's **kwargs: a dict of the keywords it got
            keywords.update((k, v) for k, v in grad.items() if k in slot)
    return tuple(out), keywords


def keyword_part(keywords, kwargs):
    """The cotangent of a dict passed as ``**kwargs`` (or of a callee's ``**kwargs``
    parameter, ``kwargs`` then the names it received): those of its keys in
    ``keywords`` (sparse). ``None`` or a float zero, a cotangent not built, has none."""
    if keywords is None or (type(keywords) is float and keywords == 0.0):
        return {}
    if type(keywords) is not dict:
        raise TypeError(f"srcgrad: the cotangent of keyword arguments is a "
                        f"{type(keywords).__name__}, not a dict: please report this program")
    return {k: keywords[k] for k in kwargs if k in keywords}


def merged_keywords(named, spread):
    """``{**named, **spread}`` for the keywords of one call (``f(x, b=y, **kw)``, each
    ``**`` in turn): a keyword given twice is Python's TypeError."""
    for key in spread:
        if key in named:
            raise TypeError(f"got multiple values for keyword argument {key!r}")
    return {**named, **spread}


def keyword_tangents(dot, kwargs):
    """The tangents of ``**kwargs`` at a call, one per keyword (None: it has none). A
    key a sparse dict tangent lacks has a zero tangent, zeros like its value (not None:
    differentiated again, this is linear in ``dot``, and the tangent of a key that has
    a tangent is zeros where ``dot``'s tangent is a sparse zero)."""
    if dot is None:
        return dict.fromkeys(kwargs)
    if type(dot) is dict:
        return {k: dot[k] if k in dot else _zeros_like(kwargs[k]) for k in kwargs}
    return {k: dot[k] for k in kwargs}


def _forward(func, owner_varies, args, kwargs, eager, keywords=False):
    compiler = _compiler()
    callee = compiler.resolve(func, owner_varies, args, kwargs, keywords)
    wrt, slots = callee.wrt()
    unit = compiler.reverse_unit(callee.fn, wrt, eager=eager)
    compiler.check_callee(unit)
    value, inner = unit.forward(*callee.values, **callee.kwargs)
    return value, (unit, inner, slots, len(args) + bool(owner_varies))


def dynamic_jvp(func, owner_dot, args, tangents, /, **kwargs):
    """``(value, tangent)`` of ``func(*args, **kwargs)``; ``owner_dot`` is the tangent of
    the method's object (None when it has none), ``tangents`` those of ``args`` (None
    for an argument without one)."""
    return dynamic_jvp_keywords(func, owner_dot, args, tangents, kwargs, {})


def dynamic_jvp_keywords(func, owner_dot, args, tangents, kwargs, keyword_dots):
    """``dynamic_jvp`` with the tangents of keyword arguments too (``keyword_dots``:
    keyword -> tangent or None)."""
    compiler = _compiler()
    varies = owner_dot is not None
    callee = compiler.resolve(func, varies, args, kwargs, bool(keyword_dots))
    outer = ((owner_dot,) if varies else ()) + tuple(tangents)
    wrt, slots = callee.wrt(frozenset(i for i, dot in enumerate(outer) if dot is not None))
    chosen = []
    for name, slot in zip(wrt, slots):
        if type(slot) is int:
            dot = outer[slot]
        elif type(slot) is str:
            dot = keyword_dots.get(slot)
        else:   # the callee's **kwargs: a dict of tangents (zeros for those without)
            dots = {k: keyword_dots.get(k) for k in slot}
            dot = None if all(d is None for d in dots.values()) else {
                k: _zeros_like(kwargs[k]) if d is None else d for k, d in dots.items()}
        if dot is not None:
            chosen.append((name, dot))
    unit = compiler.forward_unit(callee.fn, tuple(name for name, _ in chosen))
    compiler.check_callee(unit)
    return compiler.call_jvp(unit, callee.values, [t for _, t in chosen], **callee.kwargs)


def method_owner(method):
    """The object a bound method is bound to (``x`` for ``x.reshape``): a bound method's
    derivative is its object's, so the row passes tangents and cotangents on unchanged."""
    return method.__self__


def _zeros_like(value):
    from srcgrad.runtime.core import zeros_like

    return zeros_like(value)


def sorted_order(items, key=None, reverse=False):
    """The positions of ``items`` in ``sorted(items, key=key, reverse=reverse)`` order
    (locally constant in the items' values: listed as non-differentiable)."""
    keys = list(items) if key is None else [key(item) for item in items]
    return sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)


_RETRIES = threading.local()
_MAX_RETRIES = 8


def _not_itself(found, function):
    """``found``; where regenerating gave back ``function`` itself (what its guard read
    changed back since, as another thread rebinding a global does), ``function`` run
    again, at most ``_MAX_RETRIES`` times nested: more, and its guards cannot hold (the
    names they check denote other objects than they compare them with), which would
    recurse without end."""
    if found is not function:
        return found
    depth = getattr(_RETRIES, "depth", 0)
    if depth >= _MAX_RETRIES:
        from srcgrad.errors import InternalError

        raise InternalError(
            f"srcgrad: internal error: a guard of the code generated from "
            f"`{function.unit.fn.__qualname__}` cannot hold (the names it checks denote "
            "other objects than it compares them with); please report this program")

    def again(*args, **kwargs):
        _RETRIES.depth = depth + 1
        try:
            return function(*args, **kwargs)
        finally:
            _RETRIES.depth = depth

    return again


def regenerated(function):
    """The function of the same role in the unit generated for what the names that
    ``function``'s unit resolved denote now (its guards missed: see srcgrad.compiler.guards)."""
    compiler = _compiler()
    unit, role = function.unit, function.role
    if role == "jvp":
        return _not_itself(compiler.forward_unit(unit.fn, unit.wrt).jvp, function)
    current = compiler.reverse_unit(unit.fn, unit.wrt, eager=unit.eager, scalars=unit.scalars)
    if role != "forward":
        return _not_itself(current.functions[role], function)
    if current.forward is function:
        return _not_itself(function, function)   # (its own saved values, its own backward)

    def forward(*args, **kwargs):
        value, saved = current.forward(*args, **kwargs)
        return value, Redirected(current.backward, saved)

    return forward


class Redirected:
    """Saved values of another unit's forward: its backward runs on them."""

    __slots__ = ("_backward", "_saved")

    def __init__(self, backward, saved):
        self._backward, self._saved = backward, saved

    def backward(self, g):
        return self._backward(self._saved, g)


def call_method(obj, name, /, *args, **kwargs):
    """``obj.name(*args)`` for a method whose output is locally constant in ``obj``'s
    values (``count``, ``argmax``): the rule table lists it as non-differentiable."""
    return getattr(obj, name)(*args, **kwargs)


def super_function(cls, obj, name, /):
    """``super(cls, obj).name`` for a method defined with ``def``: the first ``name`` in
    the classes after ``cls`` in ``type(obj)``'s method resolution order, bound to
    ``obj`` (a bound method, as ``obj.name`` is: calls of it carry ``obj``'s derivative
    as its owner's). Anything else there (a property, a classmethod...) is a
    ``TypeError``."""
    mro = type(obj).__mro__
    for klass in mro[mro.index(cls) + 1:]:
        found = klass.__dict__.get(name)
        if found is not None:
            if not isinstance(found, types.FunctionType):
                raise TypeError(f"srcgrad differentiates super().{name}(...) only for a "
                                f"method defined with def, not a {type(found).__name__}")
            return types.MethodType(found, obj)
    raise AttributeError(f"'super' object has no attribute {name!r}")


# These run user code (a callee found at run time, the unit regenerated for what names
# denote now, a method called by name): the Variables it reads go through the
# collectors, so ``eager.static`` keeps its collector-free variant off such code.
for _runs_user_code in (dynamic_forward, dynamic_forward_eager, dynamic_forward_keywords,
                        dynamic_forward_eager_keywords, dynamic_backward,
                        dynamic_backward_keywords, dynamic_jvp, dynamic_jvp_keywords,
                        regenerated, call_method):
    vars(_runs_user_code)["__srcgrad_runs_user_code__"] = True
