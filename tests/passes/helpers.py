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
