"""Dead code elimination: drop side-effect-free assignments whose results are never read.

Before::                               After::

    dx_h, dy_h = h_backward(s, d)          dx_h, dy_h = h_backward(s, d)
    _unused = dy_h * 2                     dx = dx_h
    dx = dx_h
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis.cfg import CFG
from srcgrad.analysis.dataflow import live_names
from srcgrad.syntax import gast

PURE_CALL_ROOTS = {"np", "math", "_sg"}
# helpers with effects beyond their result: ``add_at`` writes in place, a Variable read
# registers the Variable (TF lists a Variable read even when the value is unused), and a
# dynamic callee's backward hands cotangents to the Variables it read
IMPURE_HELPERS = {"add_at", "read_variable", "dynamic_backward"}


def eliminate_dead_code(body, live_out):
    """Drop the dead assignments of ``body``, also those that fed only dead ones: the
    liveness is solved again on the same graph with the dropped statements' reads and
    writes taken out, until nothing more is dead (one graph, not one per round).
    Returns ``(body, changed)``."""
    cfg = CFG([], body)
    dead = set()   # id of each dropped statement
    while True:
        live_after = live_names(cfg, live_out)
        newly = [node for node in cfg.nodes if node.stmt is not None
                 and id(node.stmt) not in dead and _is_dead(node, live_after)]
        if not newly:
            break
        for node in newly:
            dead.add(id(node.stmt))
            node.def_bits = node.use_bits = 0   # as if the statement were gone
    emptied = []
    body = _filter(body, lambda stmt: id(stmt) not in dead, emptied)
    if emptied:   # a dropped ``if c: pass`` no longer reads ``c``
        body, _ = eliminate_dead_code(body, live_out)
    return body, bool(dead or emptied)


def _is_dead(node, live_after):
    stmt = node.stmt
    if not isinstance(stmt, gast.Assign) or getattr(stmt, "saved", None):
        return False
    if not node.defs or node.def_bits & live_after.bits[node] or not _is_pure(stmt.value):
        return False
    return all(isinstance(t, (gast.Name, gast.Tuple)) for t in stmt.targets)


def _filter(body, keep, emptied):
    out = []
    for stmt in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt):
                new = _filter(inner, keep, emptied)
                setattr(stmt, field, new or syntax.emptied_block(stmt, field))
        if _is_empty_if(stmt):
            emptied.append(stmt)
            continue
        if keep(stmt):
            out.append(stmt)
    return out


def _is_empty_if(stmt):
    """``if c: pass`` with no else and a plain name as its test: nothing to run."""
    return (isinstance(stmt, gast.If) and not stmt.orelse and len(stmt.body) == 1
            and isinstance(stmt.body[0], gast.Pass) and isinstance(stmt.test, gast.Name))


def _is_pure(expr):
    for node in syntax.walk(expr):
        if isinstance(node, gast.Call):
            func = node.func
            root = func
            while isinstance(root, gast.Attribute):
                root = root.value
            if not (isinstance(root, gast.Name) and root.id in PURE_CALL_ROOTS):
                return False
            if isinstance(func, gast.Attribute) and func.attr in IMPURE_HELPERS:
                return False
            if isinstance(func, gast.Attribute) and func.attr == "pop":
                return False
            if "random" in (syntax.dotted_name(func) or ""):
                return False
    return True

