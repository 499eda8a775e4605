"""Rename reassigned names in straight-line code, so that each value has its own name.

Before::                      After::

    y = x * 2.0                   y = x * 2.0
    y = y * y                     y_1 = y * y
    return y + x                  return y_1 + x

A reassignment overwrites a value the backward sweep may need, which costs a stack save
and restore; a fresh name keeps both values at no cost. Only names assigned at the top
level of the function body (never inside an ``if``, a loop or another block) are
renamed: their reads anywhere after the assignment then see exactly one definition.
"""

from __future__ import annotations

from collections import Counter

from srcgrad import syntax
from srcgrad.syntax import gast

_BLOCKS = (gast.If, gast.For, gast.While, gast.With, gast.Try)


def rename_reassignments(body, params, namer):
    top_level = Counter(stmt.targets[0].id for stmt in body if _assigns_name(stmt))
    nested = {name for stmt in body if isinstance(stmt, _BLOCKS)
              for name in syntax.names_in(stmt, gast.Store)}
    renamable = {name for name, count in top_level.items()
                 if name not in nested and count + (name in params) > 1}
    if not renamable:
        return body
    current = {}
    seen = set(params)
    for stmt in body:
        _rename_reads(stmt, current)
        if _assigns_name(stmt) and stmt.targets[0].id in renamable:
            name = stmt.targets[0].id
            if name in seen:
                current[name] = namer.fresh(name)
                stmt.targets[0].id = current[name]
            seen.add(name)
    return body


def _assigns_name(stmt):
    return isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)


def _rename_reads(stmt, current):
    if not current:
        return
    for node in syntax.walk(stmt):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) \
                and node.id in current:
            node.id = current[node.id]
