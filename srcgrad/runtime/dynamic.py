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

import srcgrad

__all__ = ["Redirected", "call_method", "dynamic_backward", "dynamic_forward",
           "dynamic_forward_eager", "dynamic_jvp", "regenerated", "register_compiler",
           "sorted_order"]

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


def dynamic_backward(saved, g):
    unit, inner, slots, count = saved
    grads = unit.backward(inner, g)
    out = [0.0] * count
    for slot, grad in zip(slots, grads):
        out[slot] = grad
    return tuple(out)


def _forward(func, owner_varies, args, kwargs, eager):
    compiler = _compiler()
    callee = compiler.resolve(func, owner_varies, args, kwargs)
    wrt, slots = callee.wrt()
    unit = compiler.reverse_unit(callee.fn, wrt, eager=eager)
    compiler.check_callee(unit)
    value, inner = unit.forward(*callee.values, **callee.kwargs)
    return value, (unit, inner, slots, len(args) + bool(owner_varies))


def dynamic_jvp(func, owner_dot, args, tangents, /, **kwargs):
    """``(value, tangent)`` of ``func(*args, **kwargs)``; ``owner_dot`` is the tangent of
    the method's object (None when it has none), ``tangents`` those of ``args`` (None
    for an argument without one)."""
    compiler = _compiler()
    varies = owner_dot is not None
    callee = compiler.resolve(func, varies, args, kwargs)
    outer = ((owner_dot,) if varies else ()) + tuple(tangents)
    wrt, slots = callee.wrt()
    chosen = [(name, outer[slot]) for name, slot in zip(wrt, slots) if outer[slot] is not None]
    unit = compiler.forward_unit(callee.fn, tuple(name for name, _ in chosen))
    compiler.check_callee(unit)
    return compiler.call_jvp(unit, callee.values, [t for _, t in chosen], **callee.kwargs)


def sorted_order(items, key=None, reverse=False):
    """The positions of ``items`` in ``sorted(items, key=key, reverse=reverse)`` order
    (locally constant in the items' values: listed as non-differentiable)."""
    keys = list(items) if key is None else [key(item) for item in items]
    return sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)


def regenerated(function):
    """The function of the same role in the unit generated for what the names that
    ``function``'s unit resolved denote now (its guards missed: see srcgrad.compiler.guards)."""
    compiler = _compiler()
    unit, role = function.unit, function.role
    if role == "jvp":
        return compiler.forward_unit(unit.fn, unit.wrt).jvp
    current = compiler.reverse_unit(unit.fn, unit.wrt, eager=unit.eager, scalars=unit.scalars)
    if role != "forward":
        return current.functions[role]

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


# Generated code calling these is differentiated again through srcgrad.compiler.dispatch.
for _helper in (dynamic_forward, dynamic_forward_eager, dynamic_backward, dynamic_jvp):
    vars(_helper)["__srcgrad_dispatch__"] = True
