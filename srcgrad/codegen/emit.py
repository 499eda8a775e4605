"""Assemble generated functions into module source, with a map back to the user's lines.

Before: statement lists for the forward and backward sweeps (each statement stamped with
the user's line it came from).
After: ``GeneratedModule`` with the source text of ``f_forward``, ``f_backward``,
``f_grad`` and ``f_value_and_grad`` and ``line_map[generated_line] = user_line``.
"""

from __future__ import annotations

import ast
import dataclasses

from srcgrad import syntax
from srcgrad.syntax import gast


@dataclasses.dataclass
class GeneratedModule:
    source: str
    line_map: dict          # generated line -> user line
    functions: dict         # role -> generated function name
    spans: dict             # generated function name -> (first line, last line)


def render_module(header, functions):
    """``functions``: list of (role, gast FunctionDef). Returns a ``GeneratedModule``."""
    body = [fn for _, fn in functions]
    source = syntax.render(body)
    source = "".join(f"# {line}\n" for line in header) + source
    tree = ast.parse(source)
    line_map = _line_map(body, tree)
    spans = {node.name: (node.lineno, node.end_lineno) for node in tree.body
             if isinstance(node, ast.FunctionDef)}
    names = {role: fn.name for role, fn in functions}
    return GeneratedModule(source, line_map, names, spans)


def _line_map(body, tree):
    generated = list(_statements(tree.body))
    original = [s for s in _gast_statements(body) if not syntax.is_comment(s)]
    line_map = {}
    for gen, orig in zip(generated, original):
        user_line = getattr(orig, "lineno", None)
        if user_line:
            line_map[gen.lineno] = user_line
    return line_map


def _statements(body):
    for stmt in body:
        yield stmt
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                yield from _statements(inner)


def _gast_statements(body):
    for stmt in body:
        yield stmt
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt):
                yield from _gast_statements(inner)


def function_source(module, name):
    """The source lines of one generated function."""
    first, last = module.spans[name]
    return "\n".join(module.source.splitlines()[first - 1:last]) + "\n"
