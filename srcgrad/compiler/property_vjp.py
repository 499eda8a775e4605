"""The vector-Jacobian product (and the Jacobian-vector product) of a property's getter,
written as code srcgrad compiles: differentiated in forward mode each gives the second
derivative through the property.

``obj.name`` for a property is differentiated as its getter is (``_sg.add_attr`` runs the
getter's vjp in the backward sweep). Forward mode over that backward sweep (``sg.hvp``)
needs the vjp's tangent through ``obj`` as well: ``_sg.property_curvature`` asks for
``property_vjp``'s jvp along the object's tangent, and ``property_vjp`` calls the getter
through ``dynamic_forward``/``dynamic_backward``, which forward mode differentiates as it
does any call resolved when it runs (``compiler.dispatch``).
"""

from __future__ import annotations

from srcgrad import runtime as _sg


def property_vjp(obj, g, getter):
    """The cotangent ``getter`` (a property's, a function of the object) gives ``obj``
    from ``g``."""
    value, saved = _sg.dynamic_forward(getter, False, obj)
    cotangents = _sg.dynamic_backward(saved, g)
    return cotangents[0]


def property_jvp(obj, obj_dot, getter):
    """The tangent ``getter`` (a property's, a function of the object) gives along the
    object's tangent ``obj_dot``: differentiated in forward mode along the object, the
    property's second derivative (``_sg.field_tangent_object_term``)."""
    value, tangent = _sg.dynamic_jvp(getter, None, (obj,), (obj_dot,))
    return tangent


# The property helpers of the second derivative written as code srcgrad compiles
# (``compiler.dispatch_properties`` resolves each helper's call to one of these when code
# calling it is differentiated again: the third derivative and on, through the calls
# resolved when they run that these make).


def property_term(obj, v, getter, direction):
    """``_sg.field_tangent_object_term`` for a property: the tangent of its getter's jvp
    along ``direction``."""
    value, tangent = _sg.dynamic_jvp(property_jvp, None, (obj, v, getter),
                                     (direction, None, None))
    return tangent


def property_curvature(dx_dot, g, obj, obj_dot, getter):
    """``_sg.property_curvature`` for a property: ``dx_dot`` plus the tangent of the
    getter's vjp (``g`` held) along ``obj_dot``."""
    value, tangent = _sg.dynamic_jvp(property_vjp, None, (obj, g, getter),
                                     (obj_dot, None, None))
    return _sg.add_cotangents(dx_dot, tangent)


def property_object_adjoint(v, item, obj, getter):
    """``_sg.property_object_adjoint`` for a property: the cotangent ``obj`` gets from
    ``v`` through the getter's vjp."""
    value, saved = _sg.dynamic_forward(property_vjp, False, obj, item, getter)
    cotangents = _sg.dynamic_backward(saved, v)
    return _sg.add_cotangents({}, cotangents[0])


def attr_item_adjoint(dx, item, obj, getter):
    """``_sg.attr_item_adjoint`` for a property: the cotangent ``item`` gets from ``dx``
    through the getter's vjp (the getter's jvp along ``dx``)."""
    value, saved = _sg.dynamic_forward(property_vjp, False, obj, item, getter)
    cotangents = _sg.dynamic_backward(saved, dx)
    return cotangents[1]


def property_tangent_object_adjoint(g, obj, v, getter):
    """``_sg.field_tangent_object_adjoint`` for a property: the cotangent ``obj`` gets
    from ``g`` through the getter's jvp along ``v``."""
    value, saved = _sg.dynamic_forward(property_jvp, False, obj, v, getter)
    cotangents = _sg.dynamic_backward(saved, g)
    return _sg.add_cotangents({}, cotangents[0])


def no_field_cotangent(g, obj, v, name):
    """``_sg.field_tangent_object_adjoint`` for a field or a method: none."""
    return {}


def field_term(obj, v, name, direction):
    """``_sg.field_tangent_object_term`` for a field or a method: zeros."""
    return _sg.zeros_like(_sg.field_tangent(obj, v, name))


def passes(dx_dot, name, g, obj, obj_dot):
    """``_sg.property_curvature`` for a field or a method (or an object without a
    tangent): ``dx_dot`` unchanged."""
    return dx_dot


def object_zeros(v, name, item, obj):
    """``_sg.property_object_adjoint`` for a field or a method: zeros like ``obj`` (a
    sparse dict without fields for a field known to be one, ``obj`` None)."""
    if obj is None:
        return {}
    return _sg.zeros_like(obj)


def field_item_adjoint(dx, name, item, obj):
    """``_sg.attr_item_adjoint`` for a field or a method."""
    return _sg.field_item_adjoint(dx, name, item, obj)
