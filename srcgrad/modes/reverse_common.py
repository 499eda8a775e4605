"""Small facts about normalized statements that the reverse-mode modules share."""

from __future__ import annotations

from srcgrad.syntax import gast

OWNED, SHARED = "owned", "shared"  # a nonzero adjoint's buffer: ours to mutate, or not


def list_growth(call):
    """'append' / 'extend' for ``name.append(atom)`` / ``name.extend(atom)``, else None."""
    if (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and call.func.attr in ("append", "extend") and isinstance(call.func.value, gast.Name)
            and len(call.args) == 1 and not call.keywords):
        return call.func.attr
    return None


def list_pop(call):
    """Is ``call`` ``name.pop()`` or ``name.pop(i)`` (a list's last or i-th item)?"""
    return (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and call.func.attr == "pop" and isinstance(call.func.value, gast.Name)
            and len(call.args) <= 1 and not call.keywords)


def is_range(expr):
    return isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name) \
        and expr.func.id == "range"


def is_loop_exit(stmt):
    return (isinstance(stmt, gast.If) and len(stmt.body) == 1
            and isinstance(stmt.body[0], gast.Break) and not stmt.orelse)


def has_exit(stmt):
    return bool(stmt.body) and is_loop_exit(stmt.body[-1])
