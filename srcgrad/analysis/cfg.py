"""A control-flow graph over (normalized or generated) structured Python.

Each simple statement is a node; an ``if`` contributes its test node, a loop its header
node (a ``for`` header defines the loop target). ``break`` jumps past its loop.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast


class Node:
    __slots__ = ("stmt", "kind", "succ", "pred", "defs", "uses")

    def __init__(self, stmt, kind, defs=(), uses=()):
        self.stmt, self.kind = stmt, kind
        self.succ, self.pred = [], []
        self.defs, self.uses = frozenset(defs), frozenset(uses)

    def __repr__(self):
        return f"Node({self.kind}, defs={sorted(self.defs)}, uses={sorted(self.uses)})"


class CFG:
    def __init__(self, params, body):
        self.nodes = []
        self.by_stmt = {}
        self.entry = self._add(None, "entry", defs=params)
        self.exit = Node(None, "exit")
        self._loop_exits = []
        ends = self._block(body, [self.entry])
        self.nodes.append(self.exit)
        for end in ends:
            _link(end, self.exit)

    def node(self, stmt):
        return self.by_stmt[id(stmt)]

    def _add(self, stmt, kind, defs=(), uses=()):
        node = Node(stmt, kind, defs, uses)
        self.nodes.append(node)
        if stmt is not None:
            self.by_stmt[id(stmt)] = node
        return node

    def _block(self, body, preds):
        for stmt in body:
            preds = self._statement(stmt, preds)
        return preds

    def _statement(self, stmt, preds):
        if isinstance(stmt, gast.If):
            branch = self._add(stmt, "branch", uses=syntax.loaded_names(stmt.test))
            node = self._connect(branch, preds)
            return self._block(stmt.body, [node]) + self._block(stmt.orelse, [node])
        if isinstance(stmt, (gast.For, gast.While)):
            if isinstance(stmt, gast.For):
                header = self._add(stmt, "loop", defs=syntax.names_in(stmt.target),
                                   uses=syntax.loaded_names(stmt.iter))
            else:
                header = self._add(stmt, "loop", uses=syntax.loaded_names(stmt.test))
            self._connect(header, preds)
            self._loop_exits.append([])
            ends = self._block(stmt.body, [header])
            for end in ends:
                _link(end, header)
            breaks = self._loop_exits.pop()
            assert not stmt.orelse, "loop else blocks are removed by normalization"
            return [header] + breaks
        if isinstance(stmt, gast.With):
            defs = [n for item in stmt.items if item.optional_vars is not None
                    for n in syntax.names_in(item.optional_vars)]
            uses = [n for item in stmt.items for n in syntax.loaded_names(item.context_expr)]
            header = self._connect(self._add(stmt, "with", defs=defs, uses=uses), preds)
            return self._block(stmt.body, [header])
        if isinstance(stmt, gast.Try):
            return self._block(stmt.finalbody, self._block(stmt.body, preds))
        if isinstance(stmt, gast.Break):
            node = self._connect(self._add(stmt, "break"), preds)
            self._loop_exits[-1].append(node)
            return []
        if isinstance(stmt, gast.Continue):
            raise NotImplementedError("continue is removed by normalization")
        if isinstance(stmt, (gast.Return, gast.Raise)):
            node = self._connect(self._add(stmt, "exit", uses=syntax.loaded_names(stmt)), preds)
            if isinstance(stmt, gast.Return):
                _link(node, self.exit)
            return []
        defs, uses = statement_defs_uses(stmt)
        return [self._connect(self._add(stmt, "stmt", defs, uses), preds)]

    def _connect(self, node, preds):
        for pred in preds:
            _link(pred, node)
        return node


def _link(a, b):
    a.succ.append(b)
    b.pred.append(a)


def statement_defs_uses(stmt):
    """Names a simple statement defines and reads (``x[i] = v`` reads and keeps ``x``)."""
    if isinstance(stmt, gast.Assign):
        target = stmt.targets[0]
        uses = syntax.loaded_names(stmt.value)
        if isinstance(target, gast.Name):
            return [target.id], uses
        if isinstance(target, (gast.Tuple, gast.List)):
            return syntax.names_in(target, gast.Store), uses + syntax.loaded_names(target)
        return [], uses + syntax.loaded_names(target)
    if isinstance(stmt, gast.AugAssign):
        stored = syntax.names_in(stmt.target, gast.Store)
        return stored, stored + syntax.loaded_names(stmt)
    return [], syntax.loaded_names(stmt)
