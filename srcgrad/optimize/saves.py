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

from srcgrad import syntax
from srcgrad.analysis.cfg import CFG
from srcgrad.analysis.dataflow import live_names
from srcgrad.syntax import gast


def _is_save(stmt):
    return getattr(stmt, "saved", None) is not None


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


def prune_saves(forward, backward, live_out=()):
    """Drop the save pairs of every variable none of whose restores is read afterwards
    (liveness over the backward sweep); return (forward, backward, names still saved)."""
    while True:
        cfg = CFG([], backward)
        live_after = live_names(cfg, frozenset(live_out))
        read = {}
        for stmt in syntax.statements(backward):
            if _is_save(stmt):
                node = cfg.by_stmt.get(id(stmt))
                live = node is not None and stmt.saved in live_after[node]
                read[stmt.saved] = read.get(stmt.saved, False) or live
        unread = {name for name, live in read.items() if not live}
        unread |= {s.saved for s in syntax.statements(forward) if _is_save(s)} - set(read)
        if not unread:
            break
        needed = set(read) - unread
        forward = _drop(forward, needed)
        backward = _drop(backward, needed)
    kept = {s.saved for s in syntax.statements(forward) if _is_save(s)}
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
