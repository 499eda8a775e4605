"""Rename reassigned names in straight-line code, so that each value has its own name.

Before::                      After::

    y = x * 2.0                   y = x * 2.0
    y = y * y                     y_1 = y * y
    return y + x                  return y_1 + x

A reassignment overwrites a value the backward sweep may need, which costs a stack save
and restore; a fresh name keeps both values at no cost. Only names assigned at the top
level of the function body (never inside an ``if``, a loop or another block) are
renamed: their reads anywhere after the assignment then see exactly one definition.

A name computed from itself comes out of A-normal form through a temporary
(``_add = s + t; s = _add``: a target never appears in its own value); once ``s`` is
renamed, the value is computed straight into the new name (``s_1 = s + t``) when the
temporary is read nowhere else.
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
    # Each statement walked once: the names it reads (as nodes, renamed below).
    read_nodes = [[node for node in syntax.walk(stmt) if type(node) is gast.Name
                   and type(node.ctx) is gast.Load] for stmt in body]
    reads = Counter(node.id for nodes in read_nodes for node in nodes)
    current = {}
    seen = set(params)
    out = []
    for stmt, nodes in zip(body, read_nodes):
        _rename_reads(nodes, current)
        if _assigns_name(stmt) and stmt.targets[0].id in renamable:
            name = stmt.targets[0].id
            if name in seen:
                current[name] = namer.fresh(name)
                stmt.targets[0].id = current[name]
                if out and _folds_into(out[-1], stmt, reads, top_level, nested, namer.temps):
                    out[-1].targets[0].id = current[name]   # _add = s + t -> s_1 = s + t
                    seen.add(name)
                    continue
            seen.add(name)
        out.append(stmt)
    return out


def _folds_into(previous, copy, reads, top_level, nested, temps):
    """Is ``copy`` (``s_1 = t``) the one read of a compiler temporary ``t`` that
    ``previous`` computes (``t = expr``), assigned nowhere else?"""
    if not (isinstance(copy.value, gast.Name) and _assigns_name(previous)):
        return False
    temp = copy.value.id
    return temp in temps and previous.targets[0].id == temp and reads[temp] == 1 \
        and top_level[temp] == 1 and temp not in nested \
        and not getattr(previous, "inplace", False) and not getattr(copy, "inplace", False)


def _assigns_name(stmt):
    return isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)


def _rename_reads(name_nodes, current):
    """Rename the reads ``name_nodes`` (a statement's ``Name`` nodes that load) of
    ``current``'s keys."""
    for node in name_nodes:
        if node.id in current:
            node.id = current[node.id]
