"""Shrink a failing program to a small one that fails the same way (delta debugging).

Candidates, tried greedily until none helps: delete a statement (a helper's ``def``
too), replace an ``if``/``for``/``while`` by its body, replace an expression by one of
its operands. A candidate is kept when ``still_fails(source)`` says it fails as the
original did (same outcome and mode; for a crash, the same exception type)::

    small = shrink(program.source, still_fails, budget=60.0)

Before::                                  After::

    def f(x, s):                              def f(x, s):
        h = np.tanh(x * s)                        buf = np.copy(x)
        buf = np.copy(x)                          buf[1:] = x[:2]
        buf[1:] = x[:2] * np.sin(h[0])            return np.sum(buf)
        ...
        return np.sum(buf) + 0.5 * s
"""

from __future__ import annotations

import ast
import copy
import time

_COMPOUND = (ast.If, ast.For, ast.While)


def shrink(source, still_fails, budget=60.0):
    """The smallest variant of ``source`` found within ``budget`` seconds."""
    deadline = time.monotonic() + budget
    tree = ast.parse(source)
    best = ast.unparse(tree)
    start = 0
    while time.monotonic() < deadline:
        edits = _edits(tree)
        for k in range(start, len(edits)):
            if time.monotonic() >= deadline:
                return best
            candidate = _apply(tree, edits[k])
            if candidate is None:
                continue
            text = ast.unparse(candidate)
            if len(text) < len(best) and still_fails(text):
                tree, best, start = candidate, text, k
                break
        else:
            if start == 0:
                return best
            start = 0
    return best


def _edits(tree):
    """(kind, node index in walk order, option) for every candidate edit, big ones first."""
    nodes = list(ast.walk(tree))
    deletes, unwraps, replaces = [], [], []
    for index, node in enumerate(nodes):
        if isinstance(node, ast.stmt) and not _essential(node):
            deletes.append(("delete", index, None))
        if isinstance(node, _COMPOUND):
            unwraps.append(("unwrap", index, "body"))
            if getattr(node, "orelse", None):
                unwraps.append(("unwrap", index, "orelse"))
        if isinstance(node, ast.expr) and not isinstance(node, ast.Name):
            for k, child in enumerate(_operands(node)):
                if isinstance(child, ast.expr):
                    replaces.append(("replace", index, k))
    return deletes + unwraps + replaces


def _essential(node):
    """The import and ``f`` itself stay (helpers may go: a used one fails to run)."""
    return isinstance(node, (ast.Import, ast.ImportFrom)) or (
        isinstance(node, ast.FunctionDef) and node.name == "f")


def _operands(node):
    if isinstance(node, ast.Call):
        return list(node.args) + [k.value for k in node.keywords]
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.IfExp):
        return [node.body, node.orelse]
    if isinstance(node, (ast.UnaryOp,)):
        return [node.operand]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.Compare):
        return [node.left] + list(node.comparators)
    if isinstance(node, (ast.Tuple, ast.List)) and isinstance(node.ctx, ast.Load):
        return list(node.elts)
    return []


def _apply(tree, edit):
    kind, index, option = edit
    tree = copy.deepcopy(tree)
    nodes = list(ast.walk(tree))
    target = nodes[index]
    for parent in nodes:
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list) and any(v is target for v in value):
                position = next(i for i, v in enumerate(value) if v is target)
                return _edit_list(tree, parent, value, position, kind, option)
            if value is target and kind == "replace":
                setattr(parent, field, _operands(target)[option])
                return ast.fix_missing_locations(tree)
    return None


def _edit_list(tree, parent, body, position, kind, option):
    target = body[position]
    if kind == "delete":
        del body[position]
        if not body and isinstance(parent, ast.stmt):
            body.append(ast.Pass())
    elif kind == "unwrap":
        inner = list(getattr(target, option)) or [ast.Pass()]
        if isinstance(target, ast.For) and option == "body":
            inner = [ast.Assign(targets=[target.target], value=ast.Constant(0))] + inner
        body[position:position + 1] = inner
    else:
        body[position] = _operands(target)[option]
    if not body and isinstance(parent, ast.Module):
        return None
    return ast.fix_missing_locations(tree)
