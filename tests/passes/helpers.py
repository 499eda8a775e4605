"""Source in, source out: parse a snippet, run one pass, print the result."""

import textwrap

from srcgrad import syntax
from srcgrad.codegen.naming import Namer


def statements(source):
    """The statements of a dedented snippet, as gast nodes."""
    return syntax.parse(textwrap.dedent(source)).body


def function(source):
    """The gast ``FunctionDef`` of a snippet holding one ``def``."""
    return statements(source)[0]


def namer_for(node_or_body):
    """A ``Namer`` that avoids every name the snippet already uses."""
    body = node_or_body if isinstance(node_or_body, list) else [node_or_body]
    taken = []
    for stmt in body:
        taken += syntax.names_in(stmt)
    return Namer(taken)


def show(body):
    return syntax.render(body)


def expect(text):
    """An expected result written as an indented triple-quoted string."""
    return textwrap.dedent(text).lstrip("\n")


def mark_saves(body):
    """Mark ``stack.append(v)`` and ``v = stack.pop()`` as saves of ``v``, the way the
    reverse mode marks the pushes and pops it emits."""
    from srcgrad.syntax import gast

    for node in gast.walk(gast.Module(body=body, type_ignores=[])):
        if isinstance(node, gast.Expr) and _method(node.value) == "append":
            node.saved = node.value.args[0].id
        if isinstance(node, gast.Assign) and _method(node.value) == "pop":
            node.saved = node.targets[0].id
    return body


def _method(expr):
    from srcgrad.syntax import gast

    if isinstance(expr, gast.Call) and isinstance(expr.func, gast.Attribute):
        return expr.func.attr
    return None
