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
