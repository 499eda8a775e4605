"""Activity: a value is active where it depends on a ``wrt`` input (varied) AND may
reach the output (useful). Only active values get adjoints.

Before (``wrt=x``)::

    n = len(x)          # integer: never varied
    y = x * w           # varied and useful: active
    z = np.sin(w)       # does not depend on x: inactive, no adjoint

``differentiable(stmt)`` tells whether a statement's result carries a derivative from its
operands (comparisons, ``len``, ``.shape``... do not).
"""

from __future__ import annotations

import dataclasses

from srcgrad import syntax
from srcgrad.analysis.dataflow import solve
from srcgrad.syntax import gast


@dataclasses.dataclass
class Activity:
    varied_before: dict
    varied_after: dict
    useful_after: dict

    def is_active_target(self, node, name):
        return name in self.varied_after[node] and name in self.useful_after[node]

    def is_varied_operand(self, node, name):
        return name in self.varied_before[node]


def analyze_activity(cfg, wrt, differentiable, is_source=None, updates=None):
    """``is_source(stmt)``: statements whose result is varied whatever their operands
    (Variable reads in an eager unit). ``updates(stmt)``: the name a bare call updates in
    place (``_sg.add_at(dx, i, g)`` updates ``dx``), or None."""
    def varied_transfer(node, fact):
        stmt = node.stmt
        if node.kind == "entry":
            return fact | frozenset(wrt)
        if is_source is not None and isinstance(stmt, gast.Assign) and is_source(stmt):
            return fact | node.defs
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0]
            if isinstance(target, gast.Subscript):
                value_varied = bool(set(syntax.loaded_names(stmt.value)) & fact)
                return fact | {target.value.id} if value_varied else fact
            carries = differentiable(stmt) and bool(set(_diff_operands(stmt.value)) & fact)
            return (fact - node.defs) | (node.defs if carries else frozenset())
        if isinstance(stmt, gast.For):
            carries = bool(set(syntax.loaded_names(stmt.iter)) & fact) and differentiable(stmt)
            return (fact - node.defs) | (node.defs if carries else frozenset())
        grown = _grown_container(stmt)
        if grown and set(syntax.loaded_names(stmt.value.args[0])) & fact:
            return fact | {grown}
        updated = updates(stmt) if updates is not None else None
        if updated and set(_diff_operands(stmt.value)) & fact:
            return fact | {updated}
        return fact

    def useful_transfer(node, fact):
        stmt = node.stmt
        if isinstance(stmt, gast.Return):
            return fact | frozenset(syntax.loaded_names(stmt.value))
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0]
            if isinstance(target, gast.Subscript):
                if target.value.id in fact:
                    return fact | frozenset(syntax.loaded_names(stmt.value))
                return fact
            if node.defs & fact:
                return (fact - node.defs) | frozenset(_diff_operands(stmt.value))
            return fact - node.defs
        if isinstance(stmt, gast.For) and node.defs & fact:
            return fact | frozenset(syntax.loaded_names(stmt.iter))
        if isinstance(stmt, gast.Expr):
            return fact | frozenset(_diff_operands(stmt.value))  # calls may feed containers
        return fact

    varied_before, varied_after = solve(cfg, varied_transfer, forward=True)
    useful_after, _ = solve(cfg, useful_transfer, forward=False)
    return Activity(varied_before, varied_after, useful_after)


def _grown_container(stmt):
    """``lst`` for ``lst.append(v)`` / ``lst.extend(vs)`` statements, else None."""
    if not isinstance(stmt, gast.Expr) or not isinstance(stmt.value, gast.Call):
        return None
    func = stmt.value.func
    if isinstance(func, gast.Attribute) and func.attr in ("append", "extend", "insert") \
            and isinstance(func.value, gast.Name) and stmt.value.args:
        return func.value.id
    return None


def _diff_operands(expr):
    """Names whose derivative can flow into ``expr``'s value (not indices or functions)."""
    if isinstance(expr, gast.Subscript):
        return syntax.loaded_names(expr.value)
    if isinstance(expr, gast.Call):
        names = []
        for arg in list(expr.args) + [kw.value for kw in expr.keywords]:
            names += syntax.loaded_names(arg)
        if isinstance(expr.func, gast.Attribute):
            names += syntax.loaded_names(expr.func.value)
        return names
    return syntax.loaded_names(expr)
