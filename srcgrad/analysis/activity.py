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
from srcgrad.analysis.bits import FactMap
from srcgrad.analysis.dataflow import gen_kill, solve
from srcgrad.syntax import gast


@dataclasses.dataclass
class Activity:
    varied_before: FactMap
    varied_after: FactMap
    useful_after: FactMap

    def is_active_target(self, node, name):
        return self.varied_after.has(node, name) and self.useful_after.has(node, name)

    def is_varied_operand(self, node, name):
        return self.varied_before.has(node, name)


def analyze_activity(cfg, wrt, differentiable, is_source=None, updates=None):
    """``is_source(stmt)``: statements whose result is varied whatever their operands
    (Variable reads in an eager unit). ``updates(stmt)``: the name a bare call updates in
    place (``_sg.add_at(dx, i, g)`` updates ``dx``), or None."""
    index = cfg.index
    varied, useful = {}, {}
    for node in cfg.nodes:
        varied[node] = _varied_rule(node, index, wrt, differentiable, is_source, updates)
        useful[node] = _useful_rule(node, index)
    varied_before, varied_after = solve(cfg, gen_kill(varied), forward=True,
                                        boundary=0, top=0)
    useful_after, _ = solve(cfg, gen_kill(useful), forward=False, boundary=0, top=0)
    return Activity(FactMap(index, varied_before), FactMap(index, varied_after),
                    FactMap(index, useful_after))


def _varied_rule(node, index, wrt, differentiable, is_source, updates):
    """(kill, trigger, gen, always) of "depends on a wrt input" at ``node``."""
    stmt, bits = node.stmt, index.bits
    if node.kind == "entry":
        return 0, 0, 0, bits(wrt)
    if is_source is not None and isinstance(stmt, gast.Assign) and is_source(stmt):
        return 0, 0, 0, node.def_bits
    if isinstance(stmt, gast.Assign):
        target = stmt.targets[0]
        if isinstance(target, gast.Subscript):
            return 0, bits(syntax.loaded_names(stmt.value)), bits([target.value.id]), 0
        trigger = _operand_bits(node, index) if differentiable(stmt) else 0
        return node.def_bits, trigger, node.def_bits, 0
    if isinstance(stmt, gast.For):
        trigger = bits(syntax.loaded_names(stmt.iter)) if differentiable(stmt) else 0
        return node.def_bits, trigger, node.def_bits, 0
    grown = _grown_container(stmt)
    if grown:   # the item: the last argument (``insert``'s first is its position)
        return 0, bits(syntax.loaded_names(stmt.value.args[-1])), bits([grown]), 0
    updated = updates(stmt) if updates is not None else None
    if updated:
        return 0, bits(_diff_operands(stmt.value)), bits([updated]), 0
    return 0, 0, 0, 0


def _useful_rule(node, index):
    """(kill, trigger, gen, always) of "may reach the output" at ``node`` (backward)."""
    stmt, bits = node.stmt, index.bits
    if isinstance(stmt, gast.Return):
        return 0, 0, 0, bits(syntax.loaded_names(stmt.value))
    if isinstance(stmt, gast.Assign):
        target = stmt.targets[0]
        if isinstance(target, gast.Subscript):
            return 0, bits([target.value.id]), bits(syntax.loaded_names(stmt.value)), 0
        return node.def_bits, node.def_bits, _operand_bits(node, index), 0
    if isinstance(stmt, gast.For):
        return 0, node.def_bits, bits(syntax.loaded_names(stmt.iter)), 0
    if isinstance(stmt, gast.Expr):
        return 0, 0, 0, bits(_diff_operands(stmt.value))   # calls may feed containers
    return 0, 0, 0, 0


def _grown_container(stmt):
    """``lst`` for ``lst.append(v)`` / ``lst.extend(vs)`` / ``lst.insert(i, v)``
    statements, else None."""
    if not isinstance(stmt, gast.Expr) or not isinstance(stmt.value, gast.Call):
        return None
    func = stmt.value.func
    if isinstance(func, gast.Attribute) and func.attr in ("append", "extend", "insert") \
            and isinstance(func.value, gast.Name) and stmt.value.args:
        return func.value.id
    return None


def _operand_bits(node, index):
    """The bits of ``_diff_operands`` of the value ``name = value`` at ``node``: every
    name it reads (the node's uses) unless it indexes (an index carries no derivative)
    or calls something other than a name or a method (the callee's own reads)."""
    stmt = node.stmt
    value = stmt.value
    if isinstance(stmt.targets[0], gast.Name) and not isinstance(value, gast.Subscript) and (
            not isinstance(value, gast.Call)
            or isinstance(value.func, (gast.Name, gast.Attribute))):
        return node.use_bits
    return index.bits(_diff_operands(value))


def _diff_operands(expr):
    """Names whose derivative can flow into ``expr``'s value (not indices; a called
    object, whose attributes a method reads, counts)."""
    if isinstance(expr, gast.Subscript):
        return syntax.loaded_names(expr.value)
    if isinstance(expr, gast.Call):
        names = []
        for arg in list(expr.args) + [kw.value for kw in expr.keywords]:
            names += syntax.loaded_names(arg)
        if isinstance(expr.func, gast.Attribute):
            names += syntax.loaded_names(expr.func.value)
        elif isinstance(expr.func, gast.Name):
            names.append(expr.func.id)
        return names
    return syntax.loaded_names(expr)
