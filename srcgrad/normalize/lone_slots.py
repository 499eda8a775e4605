"""Lists whose slots never share storage, so that writing back into one slot needs no
walk over the others (``normalize.aliased_writes``, ``runtime.is_view_of``).

A write through an item of a list (``row = rows[t]; row[0] = v``) is written back into
its slot; ``_sg.is_view_of(row, rows, item=t)`` refuses it where another slot shares the
item's storage, which it finds by walking the list: one walk per write, quadratic in a
loop that grows the list. The walk finds nothing when every slot was, when stored, a new
array owning its memory. That is proven here in part from the source and checked in part
as the function runs:

- the list is a local bound only as ``rows = []``, changed only by ``rows.append(v)``
  and read only as ``rows[i]``, ``len(rows)`` or ``for r in rows`` (nothing else can
  store into it, nor hold it);
- each ``v`` appended is bound once in the function, by an expression that makes a new
  object (``analysis.fresh``), earlier in the same block as the one ``append`` of it:
  each append stores an object no slot holds;
- as it runs, a flag records whether every ``v`` appended since ``rows = []`` was an
  ndarray owning its memory (``_sg.lone_slot``): two such arrays never overlap.

Before::                                  After::

    rows = []                                 _rows_alone = False
    for t in range(n):                        rows = []
        _mul = x * c                          _rows_alone = True
        rows.append(_mul)                     for t in range(n):
        row = rows[t]                             _mul = x * c
        row[0] = s                                rows.append(_mul)
                                                  _rows_alone = _sg.lone_slot(_rows_alone, _mul)
                                                  row = rows[t]
                                                  _is_view = _sg.is_view_of(row, rows, item=t,
                                                      ..., alone=_rows_alone)
                                                  row[0] = s
                                                  ...
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast

_BLOCKS = ("body", "orelse", "finalbody")


class LoneSlots:
    """The proof for each list name asked about, and the statements that keep its flag."""

    def __init__(self, body, params, is_fresh, namer):
        self.body, self.params, self.is_fresh, self.namer = body, set(params), is_fresh, namer
        self.flags = {}   # list name -> flag name, or None (not proven)
        self.after = {}   # id(stmt) -> statements to insert after it
        self._stores = None

    def flag(self, name):
        """The name of the flag telling whether ``name``'s slots are alone, or None."""
        if name not in self.flags:
            self.flags[name] = self._prove(name)
        return self.flags[name]

    def prologue(self, line):
        """``flag = False`` for every flag, first in the function."""
        out = [syntax.assign(flag, syntax.const(False))
               for flag in self.flags.values() if flag is not None]
        syntax.set_line(out, line)
        return out

    def _prove(self, name):
        if name in self.params:
            return None
        bindings, appends = [], []
        for block in _blocks(self.body):
            for index, stmt in enumerate(block):
                if name not in _mentioned(stmt):
                    continue
                use = _use(stmt, name)
                if use == "binding":
                    bindings.append(stmt)
                elif use == "append":
                    appends.append((block, index))
                elif use != "read":
                    return None
        if not bindings or any(not self._fresh_append(name, block, index)
                               for block, index in appends):
            return None
        flag = self.namer.temp(f"{name}_alone")
        for stmt in bindings:
            self.after.setdefault(id(stmt), []).append(syntax.assign(flag, syntax.const(True)))
        for block, index in appends:
            value = block[index].value.args[0]
            update = syntax.quote_expr("_sg.lone_slot(f, v)", f=flag, v=value.id)
            self.after.setdefault(id(block[index]), []).append(syntax.assign(flag, update))
        return flag

    def _fresh_append(self, name, block, index):
        """Is the value of ``name.append(v)`` (``block[index]``) bound once, to a new
        object, earlier in ``block``, and appended nowhere else?"""
        value = block[index].value.args[0].id
        if value == name or value in self.params or self._store_count(value) != 1:
            return False
        appended = sum(1 for b in _blocks(self.body) for s in b
                       if _use(s, name) == "append" and s.value.args[0].id == value)
        return appended == 1 and any(
            isinstance(s, gast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], gast.Name) and s.targets[0].id == value
            and not getattr(s, "inplace", False) and self.is_fresh(s.value)
            for s in block[:index])

    def _store_count(self, name):
        if self._stores is None:
            self._stores = {}
            for node in gast.walk(gast.Module(body=self.body, type_ignores=[])):
                if isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load):
                    self._stores[node.id] = self._stores.get(node.id, 0) + 1
        return self._stores.get(name, 0)


def _blocks(body):
    """Every statement list of ``body``, nested ones (handlers' too) included."""
    todo = [body]
    while todo:
        block = todo.pop()
        yield block
        for stmt in block:
            for field in _BLOCKS:
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], gast.stmt):
                    todo.append(inner)
            for handler in getattr(stmt, "handlers", None) or ():
                todo.append(handler.body)


def _mentioned(stmt):
    """The names a statement reads or binds itself (a compound statement's header; all
    of any other, a nested ``def`` included)."""
    if isinstance(stmt, (gast.If, gast.While)):
        nodes = [stmt.test]
    elif isinstance(stmt, gast.For):
        nodes = [stmt.target, stmt.iter]
    elif isinstance(stmt, gast.Try):
        nodes = [n for h in stmt.handlers for n in (h.type, h.name) if n is not None]
    elif isinstance(stmt, gast.With):
        nodes = [n for i in stmt.items for n in (i.context_expr, i.optional_vars)
                 if n is not None]
    else:
        nodes = [stmt]
    return {n.id for node in nodes for n in gast.walk(node) if isinstance(n, gast.Name)}


def _use(stmt, name):
    """How ``stmt`` mentions the list ``name``: "binding" (``name = []``), "append"
    (``name.append(v)``, ``v`` a name), "read" (``t = name[i]``, ``t = len(name)``,
    ``for t in name``), or None (anything else)."""
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and not getattr(stmt, "inplace", False):
        target, value = stmt.targets[0], stmt.value
        if isinstance(target, gast.Name) and target.id == name:
            return "binding" if isinstance(value, gast.List) and not value.elts else None
        if not isinstance(target, gast.Name):
            return None
        if isinstance(value, gast.Subscript) and _is_name(value.value, name) \
                and name not in syntax.loaded_names(value.slice):
            return "read"
        if isinstance(value, gast.Call) and _is_name(value.func, "len") \
                and len(value.args) == 1 and _is_name(value.args[0], name) \
                and not value.keywords:
            return "read"
        return None
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call):
        call = stmt.value
        if isinstance(call.func, gast.Attribute) and _is_name(call.func.value, name) \
                and call.func.attr == "append" and len(call.args) == 1 \
                and isinstance(call.args[0], gast.Name) and not call.keywords:
            return "append"
        return None
    if isinstance(stmt, gast.For) and _is_name(stmt.iter, name) \
            and name not in syntax.names_in(stmt.target):
        return "read"
    return None


def _is_name(node, name):
    return isinstance(node, gast.Name) and node.id == name
