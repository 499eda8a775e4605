"""Keep a sum's spread cotangent compact when one elementwise expression reads it.

``np.sum``'s adjoint ``_sg.sum_adjoint`` builds a new array shaped like the summed
operand; when the next statement reads it once, inside arithmetic that broadcasts anyway
(a power's ``d * 2 * x``), the summed axes can stay length-one until that arithmetic
broadcasts them, and the expression is then spread to the full shape only if it did not
reach it itself (``runtime.spreads``)::

    Before::

        d_pow = _sg.sum_adjoint(d_sum, _pow, 2, False)
        dL = d_pow * 2 * L

    After::

        d_pow = _sg.expand_summed(d_sum, _pow, 2, False)
        dL = _sg.spread_to(d_pow * 2 * L, _pow)

Elementwise arithmetic of a broadcast operand equals the broadcast of the arithmetic, so
the values are the same; the spread array had one reader, so nothing else sees the
difference.
"""

from __future__ import annotations

from collections import Counter

from srcgrad import syntax
from srcgrad.optimize.uses import UseCache
from srcgrad.syntax import gast

_ELEMENTWISE = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow, gast.USub, gast.UAdd)


def compact_spreads(backward, live_out, uses=None):
    """Rewrite each ``n = _sg.sum_adjoint(g, a, axis, keepdims)`` whose only read is in
    elementwise arithmetic of the next statement (see the module docstring). ``uses``:
    the ``UseCache`` of the passes run together."""
    if not any(_spread(stmt)[0] for stmt in syntax.statements(backward)):
        return backward   # (most sweeps: no name counted)
    uses = UseCache() if uses is None else uses
    loads, stores = Counter(), Counter()
    for stmt in backward:
        found = uses.of(stmt)
        loads.update(found.reads)
        stores.update(found.binds)
    single = {n for n, count in loads.items() if count == 1 and stores[n] == 1} - set(live_out)
    if single:
        _rewrite_block(backward, single, uses)
    return backward


def _rewrite_block(block, single, uses):
    for stmt, following in zip(block, block[1:] + [None]):
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], gast.stmt):
                _rewrite_block(inner, single, uses)
        name, template = _spread(stmt)
        if name in single and isinstance(following, (gast.Assign, gast.AugAssign)) and \
                _wrap_reader(following, name, template):
            stmt.value.func.attr = "expand_summed"
            uses.forget(stmt)
            uses.forget(following)


def _spread(stmt):
    """``(n, a)`` for ``n = _sg.sum_adjoint(g, a, axis, keepdims)`` with an atom ``a``."""
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], gast.Name) and getattr(stmt, "saved", None) is None):
        return None, None
    call = stmt.value
    if not (isinstance(call, gast.Call) and syntax.dotted_name(call.func) == "_sg.sum_adjoint"
            and len(call.args) == 4 and not call.keywords and not syntax.spreads(call)
            and isinstance(call.args[1], (gast.Name, gast.Constant))):
        return None, None
    return stmt.targets[0].id, call.args[1]


def _wrap_reader(stmt, name, template):
    """Wrap the largest elementwise expression around the read of ``name`` in ``stmt``'s
    value in ``_sg.spread_to(..., template)``; False when the read is not in one."""
    path = _path_to(stmt, "value", name)
    if path is None or len(path) < 2:
        return False
    top = None   # (holder, field, index) of the outermost elementwise node over the read
    for holder, field, index in reversed(path[:-1]):
        node = _child(holder, field, index)
        if not isinstance(getattr(node, "op", None), _ELEMENTWISE):
            break
        top = holder, field, index
    if top is None:
        return False
    holder, field, index = top
    wrapped = syntax.call("_sg.spread_to", [_child(holder, field, index),
                                            syntax.clone(template)])
    if index is None:
        setattr(holder, field, wrapped)
    else:
        getattr(holder, field)[index] = wrapped
    return True


def _child(holder, field, index):
    value = getattr(holder, field)
    return value if index is None else value[index]


def _path_to(holder, field, name, index=None):
    """The steps ``(holder, field, index)`` from ``holder.field`` down to the ``Name``
    read of ``name`` (the last step), or None."""
    node = _child(holder, field, index)
    if isinstance(node, gast.Name):
        return [(holder, field, index)] if node.id == name else None
    for sub in node._fields if isinstance(node, gast.expr) else ():
        if sub == "ctx":
            continue
        value = getattr(node, sub, None)
        items = enumerate(value) if isinstance(value, list) else [(None, value)]
        for i, item in items:
            if isinstance(item, gast.expr):
                found = _path_to(node, sub, name, i)
                if found is not None:
                    return [(holder, field, index)] + found
    return None
