"""Remove the saves (stack pushes and their pops) whose values nobody reads.

The reverse mode pushes every value it overwrites. A push is worth keeping only when
the backward sweep reads the restored variable.

Before::                                   After (``i`` is never read backward)::

    for _ in ...:                              for _ in ...:
        stack.append(i)   # forward                t = t * 2
        stack.append(t)                            ...
        t = t * 2
    ...
    t = stack.pop()       # backward
    i = stack.pop()
"""

from __future__ import annotations

from srcgrad.syntax import gast


def _is_save(stmt):
    return getattr(stmt, "saved", None) is not None


def _statements(body):
    for stmt in body:
        yield stmt
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                yield from _statements(inner)


def _loaded(stmt):
    """Names a statement itself reads (not its nested blocks)."""
    names = set()
    nodes = [stmt]
    while nodes:
        node = nodes.pop()
        for field, value in gast.iter_fields(node):
            if field in ("body", "orelse", "finalbody") and isinstance(node, gast.stmt):
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, gast.Name) and isinstance(child.ctx, gast.Load):
                    names.add(child.id)
                elif isinstance(child, gast.AST):
                    nodes.append(child)
    return names


def prune_saves(forward, backward):
    """Drop unneeded save pairs; return (forward, backward, names still saved)."""
    needed = set()
    for stmt in _statements(backward):
        if not _is_save(stmt):
            needed |= _loaded(stmt)
    saves = [s for s in _statements(backward) if _is_save(s)]
    changed = True
    while changed:
        changed = False
        for stmt in saves:
            if stmt.saved in needed:
                extra = _loaded(stmt) - needed
                if extra:
                    needed |= extra
                    changed = True
    forward = _drop(forward, needed)
    backward = _drop(backward, needed)
    kept = {s.saved for s in _statements(forward) if _is_save(s)}
    return forward, backward, kept


def _drop(body, needed):
    out = []
    for stmt in body:
        if _is_save(stmt) and stmt.saved not in needed:
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt):
                new = _drop(inner, needed)
                setattr(stmt, field, new or ([gast.Pass()] if field == "body" else []))
        out.append(stmt)
    return out
