"""Forward the items of tuple literals: ``t = (a, b); x = t[0]`` reads ``a`` directly.

Before::                              After::

    _value = (hidden, cell)               _value = (hidden, cell)
    h = _value[0]                         h = hidden
    c = _value[1]                         c = cell

A function that returns several values builds a tuple that its caller unpacks at once
(``h, c = step(...)``); once inlined, forwarding its items leaves the tuple unread, so it
gets no adjoint (no cotangent list to build and index) and dead-code elimination drops it.
Only tuple literals (immutable) are forwarded, and only until the tuple's name or one of
the forwarded names is assigned again.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast


def forward_tuple_items(body):
    known = {}   # tuple name -> its item atoms
    out = []
    for stmt in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt):
                setattr(stmt, field, forward_tuple_items(inner))
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            item = _known_item(stmt.value, known)
            if isinstance(item, gast.Name) and item.id == stmt.targets[0].id:
                continue   # ``b = b`` (from ``b, t = b, u``): nothing to do, and the
                # reverse mode relies on a target never being read by its own value
            if item is not None:
                stmt.value = syntax.clone(item)
        _forget_assigned(stmt, known)
        if _is_tuple_of_atoms(stmt):
            known[stmt.targets[0].id] = stmt.value.elts
        if isinstance(stmt, (gast.If, gast.For, gast.While, gast.With, gast.Try)):
            known.clear()   # blocks may assign anything; keep the pass straight-line
        out.append(stmt)
    return out


def _is_tuple_of_atoms(stmt):
    return (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
            and isinstance(stmt.value, gast.Tuple)
            and all(syntax.is_atom(item) for item in stmt.value.elts))


def _known_item(value, known):
    if not (isinstance(value, gast.Subscript) and isinstance(value.value, gast.Name)
            and value.value.id in known and isinstance(value.slice, gast.Constant)
            and type(value.slice.value) is int):
        return None
    items = known[value.value.id]
    index = value.slice.value
    return items[index] if -len(items) <= index < len(items) else None


def _forget_assigned(stmt, known):
    if not known:   # (most statements: no walk)
        return
    stored = set(syntax.names_in(stmt, gast.Store))
    for name in list(known):
        if name in stored or any(isinstance(item, gast.Name) and item.id in stored
                                 for item in known[name]):
            del known[name]
