"""The property helpers of the second derivative (``_sg.field_tangent_object_term``,
``property_curvature``, ``property_object_adjoint``, ``attr_item_adjoint``) met in code
that is differentiated again: each call resolves, when it runs, to what the helper
computes written as code srcgrad compiles (``compiler.property_vjp``): for a property,
its getter's vjp or jvp differentiated once more through calls resolved when they run,
so a property is differentiated at every order; for a field or a method, the helper's
constant part (zeros, or its argument passed on) or its row-backed twin.

Before (forward mode over forward mode over a property read ``d.norm2``)::

    _term = _sg.field_tangent_object_term(d, d_dot, 'norm2', d_dot_1)

after, differentiated again: ``_sg.dynamic_jvp(_sg.field_tangent_object_term, ...)``
resolves here to ``property_term(d, d_dot, getter, d_dot_1)``, the jvp of
``property_jvp``, whose own calls of the getter are resolved the same way.
"""

from __future__ import annotations

from srcgrad import runtime
from srcgrad.compiler import property_vjp as twins
from srcgrad.errors import TransformError


def _positional(func, inputs, kwargs, count):
    if kwargs or len(inputs) != count:
        raise TransformError(f"srcgrad: generated code called _sg.{func.__name__} with "
                             f"{len(inputs)} positional arguments and keywords "
                             f"{sorted(kwargs)}, not {count} positional ones")
    return [value for value, _ in inputs], [slot for _, slot in inputs]


def _callee(fn, values, slots):
    from srcgrad.compiler.dispatch import Callee

    return Callee(fn, tuple(values), {}, tuple(slots))


def field_tangent_object_term(func, inputs, kwargs):
    (obj, v, name, direction), (s_obj, s_v, _, s_dir) = _positional(func, inputs, kwargs, 4)
    getter = runtime.property_getter(obj, name)
    if getter is None:
        return _callee(twins.field_term, (obj, v, name, direction), (s_obj, s_v, None, s_dir))
    return _callee(twins.property_term, (obj, v, getter, direction), (s_obj, s_v, None, s_dir))


def property_curvature(func, inputs, kwargs):
    (dx_dot, name, g, obj, obj_dot), (s_dx, _, s_g, s_obj, s_obj_dot) = _positional(
        func, inputs, kwargs, 5)
    getter = None if obj is None else runtime.property_getter(obj, name)
    if getter is None or obj_dot is None:
        return _callee(twins.passes, (dx_dot, name, g, obj, obj_dot),
                       (s_dx, None, s_g, s_obj, s_obj_dot))
    return _callee(twins.property_curvature, (dx_dot, g, obj, obj_dot, getter),
                   (s_dx, s_g, s_obj, s_obj_dot, None))


def property_object_adjoint(func, inputs, kwargs):
    (v, name, item, obj), (s_v, _, s_item, s_obj) = _positional(func, inputs, kwargs, 4)
    getter = None if obj is None else runtime.property_getter(obj, name)
    if getter is None:
        return _callee(twins.object_zeros, (v, name, item, obj), (s_v, None, s_item, s_obj))
    return _callee(twins.property_object_adjoint, (v, item, obj, getter),
                   (s_v, s_item, s_obj, None))


def attr_item_adjoint(func, inputs, kwargs):
    if len(inputs) == 3 and not kwargs:
        inputs = list(inputs) + [(None, None)]
    (dx, name, item, obj), (s_dx, _, s_item, s_obj) = _positional(func, inputs, kwargs, 4)
    getter = None if obj is None else runtime.property_getter(obj, name)
    if getter is None:
        return _callee(twins.field_item_adjoint, (dx, name, item, obj),
                       (s_dx, None, s_item, s_obj))
    return _callee(twins.attr_item_adjoint, (dx, item, obj, getter), (s_dx, s_item, s_obj, None))


def field_tangent_object_adjoint(func, inputs, kwargs):
    (g, obj, v, name), (s_g, s_obj, s_v, _) = _positional(func, inputs, kwargs, 4)
    getter = runtime.property_getter(obj, name)
    if getter is None:
        return _callee(twins.no_field_cotangent, (g, obj, v, name), (s_g, s_obj, s_v, None))
    return _callee(twins.property_tangent_object_adjoint, (g, obj, v, getter),
                   (s_g, s_obj, s_v, None))


def meta_table():
    return {runtime.field_tangent_object_adjoint: field_tangent_object_adjoint,
            runtime.field_tangent_object_term: field_tangent_object_term,
            runtime.property_curvature: property_curvature,
            runtime.property_object_adjoint: property_object_adjoint,
            runtime.attr_item_adjoint: attr_item_adjoint}
