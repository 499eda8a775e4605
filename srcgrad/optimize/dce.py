"""Dead code elimination: drop side-effect-free assignments whose results are never read.

Before::                               After::

    dx_h, dy_h = h_backward(s, d)          dx_h, dy_h = h_backward(s, d)
    _unused = dy_h * 2                     dx = dx_h
    dx = dx_h
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.analysis.cfg import CFG
from srcgrad.analysis.dataflow import live_names
from srcgrad.optimize.uses import UseCache
from srcgrad.syntax import gast

PURE_CALL_ROOTS = {"np", "math", "_sg", "_dep"}   # (_dep: the dependency sweep's helpers)
# helpers with effects beyond their result: ``add_at`` writes in place, a Variable read
# registers the Variable (TF lists a Variable read even when the value is unused), a
# dynamic callee's backward hands cotangents to the Variables it read, and the
# dependency sweep's ``setitem`` updates a list's dependencies in place, as the list
IMPURE_HELPERS = {"add_at", "read_variable", "dynamic_backward", "setitem"}


def eliminate_dead_code(body, live_out, uses=None):
    """Drop the dead assignments of ``body``, also those that fed only dead ones: the
    liveness is solved again on the same graph with the dropped statements' reads and
    writes taken out, until nothing more is dead (one graph, not one per round).
    Returns ``(body, changed)``: ``changed`` is true only when statements were removed, so
    a caller's "until unchanged" loop ends within as many rounds as ``body`` has
    statements. ``uses``: the ``UseCache`` of the passes run together."""
    if all(type(stmt) in _SIMPLE for stmt in body):
        return _straight_line(body, live_out, UseCache() if uses is None else uses)
    size = syntax.count_statements(body)
    for _ in fixpoint.rounds(size + 1, "dead code elimination of emptied ifs"):
        body, emptied = _drop_dead(body, live_out)
        if not emptied:   # a dropped ``if c: pass`` no longer reads ``c``: once more
            break
    return body, syntax.count_statements(body) != size


def _drop_dead(body, live_out):
    cfg = CFG([], body)
    dead = set()   # id of each dropped statement
    # each round that goes on drops one more node: at most as many rounds as nodes
    for _ in fixpoint.rounds(len(cfg.nodes) + 1, "dead code elimination"):
        live_after = live_names(cfg, live_out)
        newly = [node for node in cfg.nodes if node.stmt is not None
                 and id(node.stmt) not in dead and _is_dead(node, live_after)]
        if not newly:
            break
        for node in newly:
            dead.add(id(node.stmt))
            node.def_bits = node.use_bits = 0   # as if the statement were gone
    emptied = []
    return _filter(body, lambda stmt: id(stmt) not in dead, emptied), emptied


def _is_dead(node, live_after):
    if not node.defs or node.def_bits & live_after.bits[node]:
        return False
    return _removable(node.stmt)


def _removable(stmt):
    """Can ``stmt`` go when nothing reads what it defines?"""
    if not isinstance(stmt, gast.Assign) or getattr(stmt, "saved", None) \
            or getattr(stmt, "may_raise", False):   # (the user's code: ``normalize.raising``)
        return False
    return _is_pure(stmt.value) and all(
        isinstance(t, (gast.Name, gast.Tuple)) for t in stmt.targets)


# Statements with no control flow: a body of them only is straight-line code.
_SIMPLE = (gast.Assign, gast.AugAssign, gast.Expr, gast.Pass)


def _straight_line(body, live_out, uses):
    """Dead code elimination of straight-line code in one backward pass: a statement is
    dead when nothing after it that stays reads what it defines (as the graph's liveness
    finds, without building the graph).

    Before (``live_out = {c}``): ``a = x * 2; b = a + 1; c = x``. After: ``c = x``."""
    live = set(live_out)
    kept = []
    for stmt in reversed(body):
        defs, read = uses.defs_uses(stmt)
        if defs and live.isdisjoint(defs) and _removable(stmt):
            continue
        live.difference_update(defs)
        live.update(read)
        kept.append(stmt)
    kept.reverse()
    return kept, len(kept) != len(body)


def _filter(body, keep, emptied):
    """``body`` without the statements ``keep`` rejects, in every nested block: bodies,
    ``else`` and ``finally`` blocks, and the bodies of a ``try``'s handlers."""
    out = []
    for stmt in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt):
                new = _filter(inner, keep, emptied)
                setattr(stmt, field, new or syntax.emptied_block(stmt, field))
        for handler in getattr(stmt, "handlers", None) or ():
            handler.body = _filter(handler.body, keep, emptied) or [gast.Pass()]
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

