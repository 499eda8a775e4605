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
    """Prepend ``p = _sg.checked_namespace(p)`` for each parameter ``p`` of ``node`` (a
    FunctionDef) used only as a namespace; returns the new body."""
    params = syntax.param_names(node.args)
    if not params:
        return node.body
    uses = {p: [] for p in params}
    attribute_values = set()
    called = set()
    for sub in (n for stmt in node.body for n in gast.walk(stmt)):
        if isinstance(sub, gast.Attribute) and isinstance(sub.value, gast.Name):
            attribute_values.add(id(sub.value))
        if isinstance(sub, gast.Call) and isinstance(sub.func, gast.Attribute):
            called.add(id(sub.func))
    for sub in (n for stmt in node.body for n in gast.walk(stmt)):
        if isinstance(sub, gast.Name) and sub.id in uses:
            uses[sub.id].append(sub)
    standard_calls = _standard_calls(node, params, called)
    checked = []
    for param in params:
        names = uses[param]
        if param != NAME or param not in standard_calls or not names or any(
                not isinstance(n.ctx, gast.Load) or id(n) not in attribute_values
                for n in names):
            continue
        if not _only_standard_attributes(node, param):
            continue
        check = syntax.quote(f"{param} = _sg.checked_namespace({param})")
        checked += check
    return checked + node.body if checked else node.body


def _standard_calls(node, params, called):
    """The parameters some call goes through as ``p.name(...)``."""
    found = set()
    for sub in (n for stmt in node.body for n in gast.walk(stmt)):
        if isinstance(sub, gast.Attribute) and id(sub) in called \
                and isinstance(sub.value, gast.Name) and sub.value.id in params:
            found.add(sub.value.id)
    return found


def _only_standard_attributes(node, param):
    return all(sub.attr in _STANDARD for stmt in node.body for sub in gast.walk(stmt)
               if isinstance(sub, gast.Attribute) and isinstance(sub.value, gast.Name)
               and sub.value.id == param)
