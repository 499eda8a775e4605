"""Rows for the calls resolved when they run (``srcgrad.runtime.dynamic``) and the
helpers around them.

The calls themselves (``_sg.dynamic_forward``, ``dynamic_backward``, ``dynamic_jvp``)
have no template: differentiated again, each is a call resolved when it runs of the
derivative of the *user's* callee one order higher (``srcgrad.compiler.dispatch``,
``dispatch_jvp``), never of srcgrad's own source. Before (forward mode over)::

    y, y_saved = _sg.dynamic_forward(fn, False, x)

after: ``fn``'s generated forward, differentiated in forward mode::

    _value, _value_dot = _sg.dynamic_jvp(_sg.dynamic_forward, None, (fn, False, x),
                                         (None, None, x_dot))
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defdispatched, defnondiff

defdispatched(rt.dynamic_forward, rt.dynamic_forward_eager, rt.dynamic_forward_keywords,
              rt.dynamic_forward_eager_keywords, rt.dynamic_backward,
              rt.dynamic_backward_keywords, rt.dynamic_jvp, rt.dynamic_jvp_keywords)

# A bound method's derivative is its object's (``x.reshape``'s is ``x``'s): its object
# carries the method's tangent and cotangent unchanged.
defadjoint(rt.method_owner, "method", tangent={"method": "method_dot"}, method="g")

# ``_sg.regenerated(f_grad)``: the function of the same role generated for what the names
# denote now (a guard's hand-over); a function value, whose calls are resolved when they
# run. ``_sg.missing_transpose(name)`` raises where a row has no reverse template.
defnondiff(rt.regenerated, rt.missing_transpose)

# ``_sg.variable_cotangent(w, dw)`` hands a cotangent to the Variable collector and
# returns None: no derivative flows through its value, and what it hands over leaves the
# code being differentiated, so generated code that calls it is never differentiated
# again (``eager.nesting`` refuses a gradient function whose code hands cotangents).
defnondiff(rt.variable_cotangent)
