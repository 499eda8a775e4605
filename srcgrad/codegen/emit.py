"""Assemble generated functions into module source, with a map back to the user's lines.

Before: statement lists for the forward and backward sweeps (each statement stamped with
the user's line it came from).
After: ``GeneratedModule`` with the source text of ``f_forward``, ``f_backward``,
``f_grad`` and ``f_value_and_grad`` and ``line_map[generated_line] = user_line``.
"""

from __future__ import annotations

import ast
import dataclasses
import os

from srcgrad import syntax
from srcgrad.codegen import printer
from srcgrad.codegen.nesting import check_nesting
from srcgrad.syntax import gast


@dataclasses.dataclass
class GeneratedModule:
    source: str
    line_map: dict          # generated line -> user line
    functions: dict         # role -> generated function name
    spans: dict             # generated function name -> (first line, last line)


class _Chunk:
    """The printed lines of one top-level statement of a function body: ``line_map``
    holds (line index, user line) pairs, ``last_code`` the index of its last line that
    is not a comment (None: comments only)."""

    __slots__ = ("lines", "line_map", "last_code")

    def __init__(self, lines, line_map=None, last_code=None):
        self.lines = lines
        self.line_map = [] if line_map is None else line_map
        self.last_code = last_code


def source_location(filename, lineno):
    """Where a generated module came from, short enough for its header line: the file's
    name, not its whole path (``model.py:12``, ``<srcgrad f 1a2b3c>:4``)."""
    return f"{os.path.basename(filename) or filename}:{lineno}"


def render_module(header, functions, origin=(None, None)):
    """``functions``: list of (role, gast FunctionDef). Returns a ``GeneratedModule``.
    ``origin``: the user's file and function, cited when the code nests deeper than
    Python compiles.

    The functions share statements (the fused gradient repeats both sweeps): every
    distinct statement is printed once and its lines reused wherever it appears."""
    check_nesting([fn for _, fn in functions], *origin)
    chunks = _render_statements(_distinct_statements(fn for _, fn in functions))
    lines = [f"# {line}" for line in header]
    line_map, spans = {}, {}
    for number, (_, fn) in enumerate(functions):
        if number:
            lines.append("")
        first = last = len(lines) + 1
        lines.append(_def_line(fn))
        if getattr(fn, "lineno", None):
            line_map[first] = fn.lineno
        for stmt in fn.body:
            chunk = chunks[id(stmt)]
            if len(chunk.lines) == 1:   # (most statements: no offsets to add)
                lines.append(chunk.lines[0])
                if chunk.line_map:
                    line_map[len(lines)] = chunk.line_map[0][1]
                if chunk.last_code is not None:
                    last = len(lines)
                continue
            start = len(lines) + 1
            line_map.update((start + offset, user) for offset, user in chunk.line_map)
            if chunk.last_code is not None:
                last = start + chunk.last_code
            lines.extend(chunk.lines)
        spans[fn.name] = (first, last)
    names = {role: fn.name for role, fn in functions}
    return GeneratedModule("\n".join(lines) + "\n", line_map, names, spans)


def _distinct_statements(functions):
    seen, distinct = set(), []
    for fn in functions:
        for stmt in fn.body:
            if id(stmt) not in seen:
                seen.add(id(stmt))
                distinct.append(stmt)
    return distinct


def _def_line(fn):
    header = syntax.function_def(fn.name, (), [], arguments=fn.args)
    return syntax.to_source(header).splitlines()[0]


_SPLIT = syntax.comment("srcgrad: next statement")


def _render_statements(statements):
    """``id(stmt) -> _Chunk``: simple statements printed one by one (``printer``), the
    others in one go as the body of a dummy function (after a ``pass``, so none is
    printed as a docstring), split at markers."""
    chunks, rest = {}, []
    one_line, is_comment = printer.one_line, syntax.is_comment
    for stmt in statements:
        line = one_line(stmt)
        if line is None:
            rest.append(stmt)
        elif is_comment(stmt):
            chunks[id(stmt)] = _Chunk(["    " + line])
        else:   # (mapped as ``_map_one_line`` maps it)
            user_line = getattr(stmt, "lineno", None)
            chunks[id(stmt)] = _Chunk(["    " + line], [(0, user_line)] if user_line else [],
                                      0)
    if rest:
        chunks.update(_render_together(rest))
    return chunks


def _render_together(statements):
    body = [gast.Pass()]
    for stmt in statements:
        body += [stmt, _SPLIT]
    printed = syntax.to_source(syntax.function_def("_", (), body)).splitlines()
    marker = printed[-1]
    chunks, current = [], []
    for line in printed[2:]:   # markers compared as printed (not evaluated as comments)
        if line == marker:
            chunks.append(_Chunk(syntax.render_lines(current)))
            current = []
        else:
            current.append(line)
    code = [(stmt, chunk) for stmt, chunk in zip(statements, chunks)
            if not syntax.is_comment(stmt)]
    _map_lines(code)
    return {id(stmt): chunk for stmt, chunk in zip(statements, chunks)}


def _map_lines(code):
    """Fill each chunk's line map (its statements' lines -> user lines) and last code
    line: a one-line chunk directly, the others from one parse of them all under a
    dummy ``def``."""
    code = [(stmt, chunk) for stmt, chunk in code if not _map_one_line(stmt, chunk)]
    starts, line = {}, 2
    for _, chunk in code:
        starts[id(chunk)] = line
        line += len(chunk.lines)
    text = "\n".join(["def _():"] + [ln for _, chunk in code for ln in chunk.lines]) + "\n"
    parsed = ast.parse(text).body[0].body if code else []
    for (stmt, chunk), tree in zip(code, parsed):
        start = starts[id(chunk)]
        chunk.last_code = tree.end_lineno - start
        original = [s for s in syntax.statements([stmt]) if not syntax.is_comment(s)]
        for gen, orig in zip(syntax.statements([tree]), original):
            user_line = getattr(orig, "lineno", None)
            if user_line:
                chunk.line_map.append((gen.lineno - start, user_line))


def _map_one_line(stmt, chunk):
    """Map a statement printed on one line without parsing it (a simple statement: the
    printer puts a compound one on several lines). Returns whether it did."""
    if len(chunk.lines) != 1:
        return False
    chunk.last_code = 0
    user_line = getattr(stmt, "lineno", None)
    if user_line:
        chunk.line_map.append((0, user_line))
    return True


def function_source(module, name):
    """The source lines of one generated function."""
    first, last = module.spans[name]
    return "\n".join(module.source.splitlines()[first - 1:last]) + "\n"
