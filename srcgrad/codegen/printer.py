"""Print simple statements straight from gast, as ``ast.unparse`` prints them.

Generated sweeps are mostly one-line statements (``d_mul = d_sin * np.cos(_mul)``).
``syntax.to_source`` copies each tree into a stdlib ``ast`` tree and runs the stdlib
unparser, which costs a few times more than writing the text directly. ``one_line``
writes the statements made of common nodes itself, with the unparser's parentheses
(its precedence levels, below) and literals, and gives None for anything else, which is
then printed by ``syntax.to_source``. The text is the same either way: the golden files
and ``tests/passes/test_printer.py`` compare both printers.

Before: ``Assign(targets=[Name('dx')], value=BinOp(Name('g'), Mult(), Call(...)))``.
After: ``"dx = g * np.cos(x)"``.
"""

from __future__ import annotations

import math
import sys

from srcgrad import syntax
from srcgrad.syntax import gast

# ``ast._Precedence``'s levels (the unparser's names), as plain numbers.
TUPLE, YIELD, TEST, NOT, CMP, EXPR = 2, 3, 4, 7, 8, 9
BXOR, BAND, SHIFT, ARITH, TERM, FACTOR, POWER, ATOM = 10, 11, 12, 13, 14, 15, 16, 18
_INFSTR = "1e" + repr(sys.float_info.max_10_exp + 1)

_BINARY = {gast.Add: ("+", ARITH), gast.Sub: ("-", ARITH), gast.Mult: ("*", TERM),
           gast.MatMult: ("@", TERM), gast.Div: ("/", TERM), gast.Mod: ("%", TERM),
           gast.FloorDiv: ("//", TERM), gast.LShift: ("<<", SHIFT),
           gast.RShift: (">>", SHIFT), gast.BitOr: ("|", EXPR), gast.BitXor: ("^", BXOR),
           gast.BitAnd: ("&", BAND), gast.Pow: ("**", POWER)}
_UNARY = {gast.USub: ("-", FACTOR), gast.UAdd: ("+", FACTOR), gast.Invert: ("~", FACTOR),
          gast.Not: ("not ", NOT)}
_COMPARE = {gast.Eq: "==", gast.NotEq: "!=", gast.Lt: "<", gast.LtE: "<=", gast.Gt: ">",
            gast.GtE: ">=", gast.Is: "is", gast.IsNot: "is not", gast.In: "in",
            gast.NotIn: "not in"}
_LITERALS = (bool, int, float, complex, str, bytes, type(None))


class _Unsupported(Exception):
    """A node this printer leaves to ``ast.unparse``."""


def one_line(stmt):
    """The text of ``stmt`` (no indentation) when it is a simple statement of common
    nodes, else None. A ``syntax.comment`` gives its ``# text`` line."""
    try:
        return _statement(stmt)
    except _Unsupported:
        return None


def _statement(stmt):
    kind = type(stmt)
    if kind is gast.Assign:
        if stmt.type_comment:
            raise _Unsupported
        targets = "".join(_expr(t, TUPLE) + " = " for t in stmt.targets)
        return targets + _expr(stmt.value, TEST)
    if kind is gast.Expr:
        if syntax.is_comment(stmt):
            text = syntax.comment_text(stmt)
            if "\n" in text or "\r" in text:
                raise _Unsupported
            return "# " + text
        return _expr(stmt.value, YIELD)
    if kind is gast.Return:
        return "return" if stmt.value is None else "return " + _expr(stmt.value, TEST)
    if kind is gast.AugAssign:
        operator = _BINARY[type(stmt.op)][0]
        return f"{_expr(stmt.target, TEST)} {operator}= {_expr(stmt.value, TEST)}"
    if kind is gast.Pass:
        return "pass"
    if kind is gast.Break:
        return "break"
    raise _Unsupported


def _expr(node, context):
    """``node`` printed where the unparser's precedence is ``context``."""
    kind = type(node)
    if kind is gast.Name:
        return node.id
    if kind is gast.Constant:
        return _constant(node.value, context)
    if kind is gast.Attribute:
        value = node.value
        text = _expr(value, ATOM)
        if type(value) is gast.Constant and isinstance(value.value, int) \
                and not _negative(value.value):
            text += " "
        return f"{text}.{node.attr}"
    if kind is gast.Call:
        parts = [_expr(arg, TEST) for arg in node.args]
        for keyword in node.keywords:
            value = _expr(keyword.value, TEST)
            parts.append("**" + value if keyword.arg is None else f"{keyword.arg}={value}")
        return f"{_expr(node.func, ATOM)}({', '.join(parts)})"
    if kind is gast.BinOp:
        operator, level = _BINARY[type(node.op)]
        if level == POWER:
            left, right = _expr(node.left, level + 1), _expr(node.right, level)
        else:
            left, right = _expr(node.left, level), _expr(node.right, level + 1)
        return _wrap(f"{left} {operator} {right}", context > level)
    if kind is gast.UnaryOp:
        operator, level = _UNARY[type(node.op)]
        return _wrap(operator + _expr(node.operand, level), context > level)
    if kind is gast.Subscript:
        index = node.slice
        if type(index) is gast.Tuple and index.elts:
            inner = _items([_expr(e, TEST) for e in index.elts])
        else:
            inner = _expr(index, TEST)
        return f"{_expr(node.value, ATOM)}[{inner}]"
    if kind is gast.Tuple:
        items = [_expr(e, TEST) for e in node.elts]
        return _wrap(_items(items), not items or context > TUPLE)
    if kind is gast.List:
        return "[" + ", ".join(_expr(e, TEST) for e in node.elts) + "]"
    if kind is gast.Compare:
        parts = [_expr(node.left, CMP + 1)]
        for op, right in zip(node.ops, node.comparators):
            parts.append(f" {_COMPARE[type(op)]} {_expr(right, CMP + 1)}")
        return _wrap("".join(parts), context > CMP)
    if kind is gast.Slice:
        text = (_expr(node.lower, TEST) if node.lower else "") + ":"
        text += _expr(node.upper, TEST) if node.upper else ""
        return text + (":" + _expr(node.step, TEST) if node.step else "")
    if kind is gast.Starred:
        return "*" + _expr(node.value, EXPR)
    raise _Unsupported


def _constant(value, context):
    if type(value) not in _LITERALS:
        if value is Ellipsis:
            return "..."
        raise _Unsupported   # tuples and other objects: the unparser's way
    if type(value) in (int, float) and _negative(value):
        # printed as -(number), as ``syntax.to_source`` does (see ``_printable_constant``)
        return _wrap("-" + _constant(-value, FACTOR), context > FACTOR)
    if type(value) in (float, complex):
        return repr(value).replace("inf", _INFSTR).replace("nan", f"({_INFSTR}-{_INFSTR})")
    return repr(value)


def _negative(value):
    return math.copysign(1, value) < 0


def _items(items):
    return items[0] + "," if len(items) == 1 else ", ".join(items)


def _wrap(text, parenthesize):
    return f"({text})" if parenthesize else text
