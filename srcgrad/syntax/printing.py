"""Print gast trees as Python source (through the standard library's ``ast.unparse``),
with comment statements printed as ``#`` lines.

    render([comment("the forward sweep"), assign("y", name("x"))])
    ->  "# the forward sweep\ny = x\n"
"""

from __future__ import annotations

import ast
import math

import gast

from srcgrad.syntax.nodes import const


def to_source(node):
    """Print a gast tree (module, function, statement list or expression) as Python."""
    if isinstance(node, list):
        node = gast.Module(body=node, type_ignores=[])
    return ast.unparse(_printable(node))


def _printable(node):
    """The stdlib ``ast`` tree ``ast.unparse`` prints as ``node`` (a gast tree): the same
    node classes and fields, each statement with a line number (the unparser reads it).
    Faster than ``gast.gast_to_ast``, which also copies every location for ``compile``."""
    kind = type(node)
    if kind is gast.Name:
        return ast.Name(node.id, _CONTEXTS[type(node.ctx)])
    special = _PRINTABLE_SPECIAL.get(kind)
    if special is not None:
        return special(node)
    target = _AST_CLASSES.get(kind)
    if target is None:
        target = _AST_CLASSES[kind] = getattr(ast, kind.__name__)
    fields = {}
    for field in target._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            value = [_printable(v) if isinstance(v, gast.AST) else v for v in value]
        elif isinstance(value, gast.AST):
            value = _printable(value)
        fields[field] = value
    new = target(**fields)   # (every field given: Python 3.13 deprecates missing ones)
    if isinstance(new, ast.stmt):
        new.lineno = getattr(node, "lineno", None) or 1
    return new


def _printable_arg(name_node):
    if name_node is None:
        return None
    annotation = name_node.annotation
    return ast.arg(name_node.id, _printable(annotation) if annotation is not None else None,
                   name_node.type_comment)


def _printable_arguments(node):
    return ast.arguments(
        [_printable_arg(a) for a in node.posonlyargs], [_printable_arg(a) for a in node.args],
        _printable_arg(node.vararg), [_printable_arg(a) for a in node.kwonlyargs],
        [_printable(d) if d is not None else None for d in node.kw_defaults],
        _printable_arg(node.kwarg), [_printable(d) for d in node.defaults])


def _printable_handler(node):
    new = ast.ExceptHandler(_printable(node.type) if node.type is not None else None,
                            node.name.id if node.name is not None else None,
                            [_printable(s) for s in node.body])
    new.lineno = getattr(node, "lineno", None) or 1
    return new


_AST_CLASSES: dict[type, type] = {}


_CONTEXTS = {gast.Load: ast.Load(), gast.Store: ast.Store(), gast.Del: ast.Del()}


def _printable_constant(node):
    """A negative number as ``-(number)``: the unparser prints a negative Constant bare,
    so ``(-0.39) ** 2`` would read back as ``-(0.39 ** 2)``."""
    value = node.value
    if type(value) in (int, float) and math.copysign(1, value) < 0:
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)


_PRINTABLE_SPECIAL = {gast.arguments: _printable_arguments,
                      gast.ExceptHandler: _printable_handler,
                      gast.Constant: _printable_constant}


def comment(text):
    """A statement that prints as a ``# text`` line (see ``render``)."""
    return gast.Expr(value=const(_COMMENT_TAG + text))


_COMMENT_TAG = "#srcgrad-comment# "


def is_comment(stmt):
    return (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant)
            and isinstance(stmt.value.value, str) and stmt.value.value.startswith(_COMMENT_TAG))


def comment_text(stmt):
    """The text of a ``comment`` statement."""
    return stmt.value.value[len(_COMMENT_TAG):]


def render(body):
    """Print statements as source, turning comment markers into ``#`` lines."""
    return "\n".join(render_lines(to_source(body))) + "\n"


def render_lines(source):
    """The lines of printed ``source`` (text, or a list of lines) with comment markers
    turned into ``#`` lines."""
    lines = []
    for line in source.splitlines() if isinstance(source, str) else source:
        stripped = line.lstrip()
        if stripped[:1] in "'\"" and _COMMENT_TAG in stripped:
            text = ast.literal_eval(stripped)
            if text.startswith(_COMMENT_TAG):
                indent = line[: len(line) - len(stripped)]
                lines.append(f"{indent}# {text[len(_COMMENT_TAG):]}")
                continue
        lines.append(line)
    return lines
