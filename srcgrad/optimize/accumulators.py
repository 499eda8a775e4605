"""Accumulate a cotangent in place when nothing else can see the array it holds.

Reverse mode sums the contributions to a weight read in a loop with
``add_cotangents``, which builds a new array per iteration. When the backward sweep
binds the cotangent only to a fresh ``_sg.zeros_like(...)`` and to its own sums, and reads
it nowhere else (the returned gradient reads it after the sweep), no other name can hold
the array, so the sum may be written into it (``_sg.add_into``): an RNN's gradient
stops allocating a weight-sized array per step and per weight.

Before::                                        After::

    dW = _sg.zeros_like(W)                          dW = _sg.zeros_like(W)
    for t in reversed(range(n)):                    for t in reversed(range(n)):
        ...                                             ...
        dW = _sg.add_cotangents(dW, c)                  dW = _sg.add_into(dW, c)
    return _sg.in_dtype_of(dW, W)                   return _sg.in_dtype_of(dW, W)

A name qualifies only when every one of its occurrences in the sweep is in such a
statement (as the target, or the sum's first operand), it never occurs in the forward
sweep, and it is neither a parameter nor the seed (values the caller may hold).
"""

from __future__ import annotations

from collections import Counter

from srcgrad import syntax
from srcgrad.syntax import gast

_ZEROS = "_sg.zeros_like"
_ADD = "_sg.add_cotangents"


def accumulate_in_place(forward, backward, outside=(), uses=None):
    """Rewrite ``d = _sg.add_cotangents(d, c)`` in ``backward`` to ``_sg.add_into`` for
    each name ``d`` proven to hold an array no other name sees (see the module
    docstring). ``outside``: names bound outside both sweeps (parameters, the seed);
    ``uses``: the ``UseCache`` told of each statement rewritten."""
    fresh, sums, own = Counter(), Counter(), Counter()
    for stmt in syntax.statements(backward):
        target = _plain_target(stmt)
        if target is None:
            continue
        if _is_call(stmt.value, _ZEROS) and target not in syntax.names_in(stmt.value):
            fresh[target] += 1
            own[target] += 1
        elif _is_accumulation(stmt.value, target):
            sums[target] += 1
            own[target] += 2
    candidates = set(fresh) & set(sums)
    if not candidates:
        return backward
    everywhere = Counter(n for n in syntax.names_in(gast.Module(body=backward, type_ignores=[]))
                         if n in candidates)
    in_forward = set(syntax.names_in(gast.Module(body=forward, type_ignores=[])))
    owned = {name for name in candidates if everywhere[name] == own[name]
             and name not in in_forward and name not in outside}
    for stmt in syntax.statements(backward):
        target = _plain_target(stmt)
        if target in owned and _is_accumulation(stmt.value, target):
            stmt.value.func = syntax.quote_expr("_sg.add_into")
            if uses is not None:
                uses.forget(stmt)
    return backward


def _plain_target(stmt):
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name):
        return stmt.targets[0].id
    return None


def _is_call(node, dotted):
    return isinstance(node, gast.Call) and syntax.dotted_name(node.func) == dotted \
        and not node.keywords


def _is_accumulation(value, target):
    """Is ``value`` ``_sg.add_cotangents(target, c)`` with ``c`` not reading ``target``?"""
    if not _is_call(value, _ADD) or len(value.args) != 2:
        return False
    first, second = value.args
    return isinstance(first, gast.Name) and first.id == target \
        and target not in syntax.names_in(second)
