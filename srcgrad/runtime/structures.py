"""Cotangents and tangents of objects: NamedTuples, dataclasses and other objects whose
cotangent is an object of their type or a sparse dict of their fields, and properties,
differentiated as their getter is (the getter compiled as a method, looked up on the type).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import types

import numpy as np

from srcgrad.errors import TransformError
from srcgrad.runtime.namespaces import is_foreign
from srcgrad.runtime.shapes import is_duck_array

_NDARRAY = np.ndarray


def is_structure(x):
    """A NamedTuple, or an object whose cotangent is an object of its type (its fields'
    cotangents in its attributes): not an array, a number or a container."""
    if hasattr(x, "_fields") and isinstance(x, tuple):
        return True
    return not isinstance(x, (_NDARRAY, np.generic, int, float, complex, list, tuple,
                              str)) and (hasattr(x, "__dict__") or dataclasses.is_dataclass(x)) \
        and not is_duck_array(x) and not is_foreign(x)


def fields_of(x):
    if hasattr(x, "_fields") and isinstance(x, tuple):
        return dict(zip(x._fields, x))
    if dataclasses.is_dataclass(x):
        return {f.name: getattr(x, f.name) for f in dataclasses.fields(x)}
    return dict(vars(x))


def as_sparse(x):
    """A cotangent as a sparse dict of fields (a NamedTuple's by name; a list or tuple of
    a NamedTuple's items by position, as ``restructure`` reads them)."""
    if type(x) is dict:
        return x
    if type(x) is list or type(x) is tuple:
        return {i: item for i, item in enumerate(x) if item is not None}
    if not is_structure(x):
        raise TypeError(f"cotangents of a {type(x).__name__} and of an object cannot be "
                        "added: please report this program")
    return fields_of(x)


def add_structures(a, b, add):
    """``a + b`` for two objects of one NamedTuple or object type, field by field with
    ``add`` (``add_cotangents``). A NamedTuple's cotangent may also arrive as a plain list
    or tuple of its items (from item reads): added item by item, into a list."""
    if isinstance(a, tuple) and type(b) in (list, tuple) and len(b) == len(a):
        return [add(x, y) for x, y in zip(a, b)]
    if type(b) is not type(a):
        raise TypeError(f"cotangents of a {type(a).__name__} and a {type(b).__name__} "
                        "cannot be added: please report this program")
    fields_a, fields_b = fields_of(a), fields_of(b)
    summed = {name: add(value, fields_b[name]) for name, value in fields_a.items()}
    if isinstance(a, tuple):
        return type(a)(**summed)
    result = copy.copy(a)
    for name, value in summed.items():
        object.__setattr__(result, name, value)
    return result


def field_tangent(x, x_dot, name):
    """The tangent of ``x.name`` for a NamedTuple or dataclass ``x``: ``x_dot.name``. An
    attribute of anything else (an array's, say) has no tangent rule: an error, not a
    guess."""
    if isinstance(x, (_NDARRAY, np.generic, int, float, complex)) or not (
            isinstance(x, tuple) or hasattr(x, "__dict__") or hasattr(x, "__slots__")):
        raise TypeError(f"forward mode has no tangent for the attribute .{name} of a "
                        f"{type(x).__name__}")
    getter = property_getter(x, name)
    if getter is not None:   # a property: its getter differentiated, as a method is
        from srcgrad.runtime.dynamic import dynamic_jvp

        return dynamic_jvp(types.MethodType(getter, x), x_dot, (), ())[1]
    if isinstance(_class_attribute(x, name), types.FunctionType) \
            and name not in getattr(x, "__dict__", {}):
        return x_dot   # a bound method carries its object's tangent (compiler.dispatch)
    if type(x_dot) is dict:   # a sparse tangent: a field it lacks has zeros
        from srcgrad.runtime.core import zeros_like_structure

        return x_dot[name] if name in x_dot else zeros_like_structure(getattr(x, name))
    return getattr(x_dot, name)


def field_tangent_object_term(x, x_dot, name, direction):
    """The tangent of ``field_tangent(x, x_dot, name)`` through ``x`` along ``direction``:
    zeros, as a field's (or a bound method's) tangent is read from ``x_dot`` alone; for a
    property, its getter's second derivative (the tangent of the getter's jvp,
    ``compiler.property_jvp``, along ``direction``)."""
    from srcgrad.runtime.core import zeros_like_structure

    getter = property_getter(x, name)
    if getter is None:
        return zeros_like_structure(field_tangent(x, x_dot, name))
    from srcgrad.runtime.dynamic import _compiler, dynamic_jvp

    return dynamic_jvp(_compiler().property_jvp, None, (x, x_dot, getter),
                       (direction, None, None))[1]


def field_tangent_object_cotangent(x, name, direction=None):
    """The cotangent ``x`` gets through ``field_tangent(x, x_dot, name)`` (or its
    tangent along ``direction`` through ``field_tangent_transpose``'s ``x``): none (see
    ``field_tangent_object_term``), a sparse dict without fields."""
    _refuse_property_again(x, name)
    return {}


def field_tangent_object_adjoint(g, obj, v, name):
    """The cotangent ``obj`` gets from ``g`` through ``field_tangent(obj, v, name)``:
    none for a field or a method (``{}``, a sparse dict without fields); for a property,
    the reverse mode in ``obj`` of its getter's jvp (``compiler.property_jvp``)."""
    getter = property_getter(obj, name)
    if getter is None:
        return {}
    from srcgrad.runtime.dynamic import _compiler, dynamic_backward, dynamic_forward

    _, saved = dynamic_forward(_compiler().property_jvp, False, obj, v, getter)
    d_obj = dynamic_backward(saved, g)[0]
    if d_obj is None or (type(d_obj) is float and d_obj == 0.0):
        return {}
    return as_sparse(d_obj)


def field_tangent_transpose(g, name, x):
    """The transpose of ``field_tangent(x, x_dot, name)`` in ``x_dot``: the cotangent of
    ``x`` from ``g``, that of ``x.name``'s tangent (a bound method's is ``x``'s own; a
    property's, its getter's vjp)."""
    getter = property_getter(x, name)
    if getter is not None:
        return property_cotangent(getter, x, g)
    if isinstance(_class_attribute(x, name), types.FunctionType) \
            and name not in getattr(x, "__dict__", {}):
        return g
    return {name: g}


def _refuse_property_again(x, name):
    if property_getter(x, name) is not None:
        raise TransformError(
            f"srcgrad does not differentiate the tangent of the property "
            f"`{type(x).__name__}.{name}` in reverse mode (a gradient of a forward-mode "
            "derivative): use forward mode over it (sg.jvp), or write it as a method call, "
            "obj.name()")


def _class_attribute(x, name):
    for klass in type(x).__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return None


def refuse_property_tangent(obj, name):
    """Forward mode over a backward sweep that differentiates ``obj.name``'s property
    getter (``add_attr``): that second derivative is not generated, so it is an error,
    not the first derivative's transpose alone. A plain field passes."""
    if obj is not None and property_getter(obj, name) is not None:
        raise TransformError(
            f"srcgrad does not differentiate a second time through the property "
            f"`{type(obj).__name__}.{name}` (hvp, or a derivative of a gradient): write it "
            "as a method call, obj.name(), instead")


def property_getter(x, name):
    """The getter of ``type(x).name`` when that is a ``property`` (looked up on the type,
    as Python does, so an instance attribute of that name cannot shadow it), else None."""
    for klass in type(x).__mro__:
        found = klass.__dict__.get(name)
        if isinstance(found, property):
            return found.fget
        if isinstance(found, functools.cached_property):
            raise TypeError(f"srcgrad does not differentiate through the cached_property "
                            f"`{type(x).__name__}.{name}`: use a property or a method")
        if found is not None:
            return None
    return None


def property_cotangent(getter, obj, g):
    """The cotangent ``obj`` gets from ``g``, that of ``obj.name`` for the property whose
    getter is ``getter``, as a sparse dict of fields: the getter's vjp, run here."""
    from srcgrad.runtime.dynamic import dynamic_backward, dynamic_forward

    _, saved = dynamic_forward(types.MethodType(getter, obj), True)
    (dself,) = dynamic_backward(saved, g)
    if dself is None or (type(dself) is float and dself == 0.0):
        return {}   # the getter reads no field that carries a derivative
    return as_sparse(dself)


def property_curvature(dx_dot, name, g, obj, obj_dot):
    """The part of the tangent of ``add_attr(dx, name, g, obj)`` that comes through
    ``obj`` along ``obj_dot``, added into ``dx_dot`` (the tangent of ``dx``, a sparse dict
    of fields): for a property, the tangent of its getter's vjp (``g`` held), the getter's
    second derivative; nothing for a field or a method, whose cotangent is ``g`` alone."""
    getter = None if obj is None else property_getter(obj, name)
    if getter is None or obj_dot is None:
        return dx_dot
    from srcgrad.runtime.dynamic import _compiler, dynamic_jvp

    _, tangent = dynamic_jvp(_compiler().property_vjp, None, (obj, g, getter),
                             (obj_dot, None, None))
    if tangent is None or (type(tangent) is float and tangent == 0.0):
        return dx_dot
    from srcgrad.runtime.core import add_cotangents

    for key, value in as_sparse(tangent).items():
        dx_dot[key] = add_cotangents(dx_dot[key], value) if key in dx_dot else value
    return dx_dot


def property_object_adjoint(v, name, item, obj):
    """The cotangent ``obj`` gets from ``v`` through ``add_attr(dx, name, item, obj)`` in
    reverse mode over a backward sweep: none for a field or a method (a zero of
    ``obj``'s kind: ``{}``, a sparse dict without fields, for an object; zeros for an
    array, whose method ``x.reshape`` it is); for a property, through its getter's vjp
    differentiated in reverse mode (``property_vjp_cotangents``)."""
    if obj is None or property_getter(obj, name) is None:
        from srcgrad.runtime.core import zeros_like

        return {} if obj is None else zeros_like(obj)
    d_obj, _ = property_vjp_cotangents(v, name, item, obj)
    if d_obj is None or (type(d_obj) is float and d_obj == 0.0):
        return {}
    return as_sparse(d_obj)


def property_vjp_cotangents(v, name, item, obj):
    """``(obj's cotangent, item's)`` from ``v`` (that of the getter's vjp, ``dx``'s in
    ``add_attr(dx, name, item, obj)``) for the property ``name``: the reverse mode of
    ``property_vjp``, whose calls resolved when they run are differentiated again by the
    dispatcher."""
    from srcgrad.runtime.dynamic import _compiler, dynamic_backward, dynamic_forward

    getter = property_getter(obj, name)
    _, saved = dynamic_forward(_compiler().property_vjp, False, obj, item, getter)
    d_obj, d_item, _ = dynamic_backward(saved, v)
    return d_obj, d_item


def property_free(obj, name, v, along=None):
    """``v``, once ``obj.name`` is proven not a property: what ``property_curvature``
    adds for a field or a method is nothing, so its derivatives pass ``v`` on (``along``,
    the tangent a zero term built from it stands for, is not read); a
    property's third derivative is refused."""
    if obj is not None and property_getter(obj, name) is not None:
        raise TransformError(
            f"srcgrad does not differentiate a third time through the property "
            f"`{type(obj).__name__}.{name}`: write it as a method call, obj.name(), instead")
    return v


def attr_cotangent(g, name, obj=None):
    """The cotangent ``obj`` gets from ``g``, that of ``getattr(obj, name)``: a sparse
    dict holding the field. A property or a method read by ``getattr`` is refused (the
    attribute syntax ``obj.name`` differentiates a property's getter), as is an attribute
    of anything but an object with fields. (``obj=None``: a field known to be one.)"""
    if obj is None:
        return {name: g}
    if not is_structure(obj):
        raise TransformError(f"srcgrad does not differentiate getattr(x, {name!r}) of a "
                             f"{type(obj).__name__}: only a field of an object")
    if property_getter(obj, name) is not None or (
            callable(_class_attribute(obj, name)) and name not in getattr(obj, "__dict__", {})):
        raise TransformError(f"srcgrad does not differentiate getattr(obj, {name!r}), a "
                             f"property or method of {type(obj).__name__}, in reverse "
                             f"mode: write obj.{name}")
    return {name: g}
