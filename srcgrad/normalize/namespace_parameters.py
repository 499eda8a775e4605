"""A parameter used as an array API namespace is checked to be one when the function runs.

``def loss(x, w, xp): return xp.sum(xp.tanh(x @ w))`` calls the standard's functions
through its parameter ``xp``. What ``xp`` denotes cannot be proven from the source, so
it is checked where it runs (``_sg.checked_namespace`` raises a TransformError for a
value that is not a namespace), and the checked value is what the body reads: a local
then proven a namespace (``analysis.namespaces``), whose calls are the standard's rows.

A parameter counts only if it is named ``xp`` (the standard's own convention: an array's
methods share the standard's names, ``x.mean(axis=0)``, so the use alone cannot tell),
the body never assigns it and reads it only as ``xp.name`` with ``name`` one of the
standard's (a function, a constant, ``linalg``/``fft``), at least once as a call: any
other parameter keeps its calls resolved when they run.

Before::                                   After::

    def loss(x, xp):                           def loss(x, xp):
        return xp.sum(xp.tanh(x))                  xp = _sg.checked_namespace(xp)
                                                   return xp.sum(xp.tanh(x))
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis.namespaces import EXTENSIONS
from srcgrad.rules.array_api import XP_CONSTANTS, XP_NONDIFF, XP_RULES
from srcgrad.syntax import gast

NAME = "xp"
_STANDARD = ({name.split(".")[0] for name in XP_RULES} | XP_NONDIFF | XP_CONSTANTS
             | set(EXTENSIONS))


def check_namespace_parameters(node):
    """Prepend ``xp = _sg.checked_namespace(xp)`` when the parameter ``xp`` of ``node`` (a
    FunctionDef) is used only as a namespace; returns the new body. (Only a parameter of
    that name counts: a function without one is not walked.)"""
    if NAME not in syntax.param_names(node.args):
        return node.body
    reads, calls, other_uses = [], False, False
    attribute_values, called = set(), set()
    nodes = [sub for stmt in node.body for sub in syntax.walk(stmt)]
    for sub in nodes:
        if isinstance(sub, gast.Attribute) and isinstance(sub.value, gast.Name):
            attribute_values.add(id(sub.value))
        if isinstance(sub, gast.Call) and isinstance(sub.func, gast.Attribute):
            called.add(id(sub.func))
    for sub in nodes:
        if isinstance(sub, gast.Name) and sub.id == NAME:
            reads.append(sub)
            other_uses |= not isinstance(sub.ctx, gast.Load) or id(sub) not in attribute_values
        elif isinstance(sub, gast.Attribute) and isinstance(sub.value, gast.Name) \
                and sub.value.id == NAME:
            calls |= id(sub) in called
            other_uses |= sub.attr not in _STANDARD
    if not reads or not calls or other_uses:
        return node.body
    return syntax.quote(f"{NAME} = _sg.checked_namespace({NAME})") + node.body
