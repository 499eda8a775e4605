"""Constant folding of expressions built from rule templates.

Before::                              After::

    d_pow * (2 * h ** (2 - 1))            d_pow * (2 * h)
    g * (1 / 2.0)                         g * 0.5

Folds operations on literals, ``x ** 1`` and multiplication by the literal 1, and
``_sg.power_at_zero(x, c)`` for a literal ``c`` other than 0 (it is 0 there: a power's
``y * x ** (y - 1 + _sg.power_at_zero(x, y))`` with ``y = 3`` is ``3 * x ** 2``). It never
folds ``x * 0`` (that would lose ``x``'s shape).
"""

from __future__ import annotations

import operator

from srcgrad.syntax import const, gast

_BINARY = {gast.Add: operator.add, gast.Sub: operator.sub, gast.Mult: operator.mul,
           gast.Div: operator.truediv, gast.Pow: operator.pow}


def fold_constants(expr):
    """Return ``expr`` with literal arithmetic folded (children first)."""
    kind = type(expr)
    if kind is gast.Name or kind is gast.Constant:   # (most leaves: nothing to fold)
        return expr
    for field in _expression_fields(kind):
        value = getattr(expr, field, None)
        if isinstance(value, gast.expr):
            setattr(expr, field, fold_constants(value))
        elif type(value) is list:
            setattr(expr, field, [fold_constants(v) if isinstance(v, gast.expr) else v
                                  for v in value])
    if kind is gast.BinOp:
        return _fold_binop(expr)
    if kind is gast.Call and _is_power_at_zero(expr) and len(expr.args) == 2 \
            and _is_number(expr.args[1]) and expr.args[1].value != 0:
        return const(0)
    if kind is gast.UnaryOp and isinstance(expr.op, gast.USub) and _is_number(expr.operand):
        return const(-expr.operand.value)
    return expr


def _expression_fields(kind):
    """The fields of a node class that may hold expressions (not names or contexts)."""
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple(f for f in kind._fields
                                      if f not in ("ctx", "id", "attr", "kind", "op"))
    return fields


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fold_binop(expr):
    left, right, op = expr.left, expr.right, type(expr.op)
    if _is_number(left) and _is_number(right) and op in _BINARY:
        try:
            return const(_BINARY[op](left.value, right.value))
        except (ArithmeticError, ValueError, OverflowError):
            return expr
    if op is gast.Pow and _is_number(right, 1):
        return left
    if op is gast.Mult and _is_number(right, 1):
        return left
    if op is gast.Mult and _is_number(left, 1):
        return right
    if op is gast.Div and _is_number(right, 1):
        return left
    return expr


def _is_power_at_zero(call):
    func = call.func
    return isinstance(func, gast.Attribute) and func.attr == "power_at_zero" and \
        isinstance(func.value, gast.Name) and func.value.id == "_sg"


def _is_number(node, value=None):
    ok = isinstance(node, gast.Constant) and type(node.value) in (int, float)
    return ok and (value is None or node.value == value)
