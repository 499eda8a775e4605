"""Mark the statements of the user's code that may raise: dead code elimination keeps
them though nothing reads their values, so a call whose primal raises raises in every
derivative too (its derivative does not exist), never gives a gradient.

Before (the value of ``_x_item`` unused)::       After::

    _x_item = x[5]                                  _x_item = x[5]     # kept: may raise
    _sum = np.sum(x)                                _sum = np.sum(x)

Only expressions made of names, constants, displays of them and attributes of the
modules generated code names (``np.pi``) are known not to raise. Generated code is
marked too: a gradient differentiated again (``hvp``) keeps the statements of the
user's code that it carries."""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast

_QUIET = (gast.Name, gast.Constant, gast.Tuple, gast.List, gast.Dict, gast.Set,
          gast.expr_context, gast.Load, gast.Store)
_MODULES = {"np", "math", "_sg"}


def mark_raising(body, parsed):
    """Set ``may_raise`` on each assignment of ``body`` (nested blocks too) whose value
    may raise."""
    for stmt in syntax.statements(body):
        if isinstance(stmt, gast.Assign) and may_raise(stmt.value):
            stmt.may_raise = True
    return body


def may_raise(expr):
    """May evaluating ``expr`` raise?"""
    for node in syntax.walk(expr):
        if isinstance(node, _QUIET):
            continue
        if isinstance(node, gast.Attribute) and isinstance(node.value, gast.Name) \
                and node.value.id in _MODULES:
            continue
        return True
    return False
