"""A control-flow graph over (normalized or generated) structured Python.

Each simple statement is a node; an ``if`` contributes its test node, a loop its header
node (a ``for`` header defines the loop target), an ``except`` handler its entry node
(reached from before and after every statement of its ``try`` body). ``break`` jumps
past its loop.

``cfg.index`` numbers the names the graph mentions (``analysis.bits``) and gives every
node ``def_bits`` / ``use_bits``; ``cfg.order(forward)`` is the order a dataflow solver
visits nodes in (reverse post-order along the direction of the analysis).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis.bits import NameIndex
from srcgrad.syntax import gast


class Node:
    """One statement (or test, loop header, entry, exit). ``succ`` and ``pred`` hold the
    positions of its neighbours in ``cfg.nodes``, not the nodes: a graph of nodes that
    refer to each other is a reference cycle, which only the garbage collector frees
    (and a long function's graphs would keep it busy)."""

    __slots__ = ("stmt", "kind", "succ", "pred", "defs", "uses", "def_bits", "use_bits",
                 "position")

    def __init__(self, stmt, kind, defs=(), uses=(), position=None):
        self.stmt, self.kind, self.position = stmt, kind, position
        self.succ, self.pred = [], []
        self.defs, self.uses = frozenset(defs), frozenset(uses)
        self.def_bits = self.use_bits = 0

    def __repr__(self):
        return f"Node({self.kind}, defs={sorted(self.defs)}, uses={sorted(self.uses)})"


class CFG:
    def __init__(self, params, body):
        self.nodes = []
        self.by_stmt = {}
        self.entry = self._add(None, "entry", defs=params)
        self.exit = Node(None, "exit")
        self._loop_exits = []
        self._returns = []   # linked to the exit once it has its position
        ends = self._block(body, [self.entry])
        self.exit.position = len(self.nodes)
        self.nodes.append(self.exit)
        for end in self._returns + ends:
            _link(end, self.exit)
        self._index = None
        self._orders = {}
        self._ranks = {}

    def node(self, stmt):
        return self.by_stmt[id(stmt)]

    @property
    def index(self):
        """The ``NameIndex`` of the names nodes define or read (built on first use)."""
        if self._index is None:
            index = NameIndex()
            for node in self.nodes:
                node.def_bits = index.bits(node.defs)
                node.use_bits = index.bits(node.uses)
            self._index = index
        return self._index

    def order(self, forward=True):
        """Every node once: reverse post-order from the entry (forward) or from the exit
        along predecessors (backward), then the nodes that walk does not reach."""
        if forward not in self._orders:
            start = self.entry if forward else self.exit
            reached = _reverse_post_order(self.nodes, start, forward)
            seen = set(reached)
            self._orders[forward] = reached + [n for n in self.nodes if n not in seen]
        return self._orders[forward]

    def neighbour_ranks(self, forward=True):
        """``(sources, targets)``: for each node, by its rank in ``order(forward)``, the
        ranks of the nodes its facts come from and go to along the analysis (``None``
        for the start: the entry, or the exit)."""
        if forward not in self._ranks:
            order = self.order(forward)
            rank = {node.position: i for i, node in enumerate(order)}
            start = self.entry if forward else self.exit
            sources = [None if node is start else
                       [rank[p] for p in (node.pred if forward else node.succ)]
                       for node in order]
            targets = [[rank[p] for p in (node.succ if forward else node.pred)]
                       for node in order]
            self._ranks[forward] = sources, targets
        return self._ranks[forward]

    def _add(self, stmt, kind, defs=(), uses=()):
        node = Node(stmt, kind, defs, uses, len(self.nodes))
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
            return self._block(stmt.finalbody, self._guarded(stmt, preds))
        if isinstance(stmt, gast.Break):
            node = self._connect(self._add(stmt, "break"), preds)
            self._loop_exits[-1].append(node)
            return []
        if isinstance(stmt, gast.Continue):
            raise NotImplementedError("continue is removed by normalization")
        if isinstance(stmt, (gast.Return, gast.Raise)):
            node = self._connect(self._add(stmt, "exit", uses=syntax.loaded_names(stmt)), preds)
            if isinstance(stmt, gast.Return):
                self._returns.append(node)
            return []
        defs, uses = statement_defs_uses(stmt)
        return [self._connect(self._add(stmt, "stmt", defs, uses), preds)]

    def _guarded(self, stmt, preds):
        """A ``try`` body, then its handlers: an exception may stop the body before any of
        its statements, so each handler is entered from the state before the body and after
        every statement in it."""
        first = len(self.nodes)
        ends = self._block(stmt.body, preds)
        raising = list(preds) + self.nodes[first:]
        for handler in stmt.handlers:
            names = syntax.names_in(handler.name) if handler.name is not None else ()
            entry = self._connect(self._add(handler, "handler", defs=names), raising)
            ends = ends + self._block(handler.body, [entry])
        return ends

    def _connect(self, node, preds):
        for pred in preds:
            _link(pred, node)
        return node


def _link(a, b):
    a.succ.append(b.position)
    b.pred.append(a.position)


def _reverse_post_order(nodes, start, forward):
    """Depth-first from ``start`` (iterative: graphs can be thousands of nodes deep).
    A loop's body comes right after its header, before the code that follows the loop:
    forward, a header's successors are its body then its exit, so they are explored
    last to first; backward, a header's predecessors are the code before the loop then
    the body's end, explored first to last. (The other way round, each loop's body came
    after all the code that follows it, and the solver went through that code again at
    every loop.)"""
    def children(node):
        return iter(reversed(node.succ)) if forward else iter(node.pred)

    post, visited = [], {start.position}
    stack = [(start, children(start))]
    while stack:
        node, pending = stack[-1]
        for child in pending:
            if child not in visited:
                visited.add(child)
                child = nodes[child]
                stack.append((child, children(child)))
                break
        else:
            stack.pop()
            post.append(node)
    post.reverse()
    return post


def statement_defs_uses(stmt):
    """Names a simple statement defines and reads (``x[i] = v`` reads and keeps ``x``),
    in no particular order."""
    if isinstance(stmt, gast.Assign):
        target = stmt.targets[0]
        uses = value_reads(stmt.value)
        if isinstance(target, gast.Name):
            return [target.id], uses
        if isinstance(target, (gast.Tuple, gast.List)):
            return syntax.names_in(target, gast.Store), uses + syntax.loaded_names(target)
        return [], uses + syntax.loaded_names(target)
    if isinstance(stmt, gast.AugAssign):
        stored = syntax.names_in(stmt.target, gast.Store)
        return stored, stored + syntax.loaded_names(stmt)
    return [], syntax.loaded_names(stmt)


_ATOMS = (gast.Name, gast.Constant)


def value_reads(value):
    """The names an assigned value reads: the shapes of A-normal form (``a``, ``a * b``,
    ``np.sin(a)``, ``f(a, b)``) directly, any other by a walk."""
    kind = type(value)
    if kind is gast.Name:
        return [value.id]
    if kind is gast.Constant:
        return []
    if kind is gast.BinOp and type(value.left) in _ATOMS and type(value.right) in _ATOMS:
        return [side.id for side in (value.left, value.right) if type(side) is gast.Name]
    if kind is gast.Call and not value.keywords \
            and all(type(arg) in _ATOMS for arg in value.args):
        func = value.func
        while type(func) is gast.Attribute:
            func = func.value
        if type(func) is gast.Name:
            return [func.id] + [arg.id for arg in value.args if type(arg) is gast.Name]
    return syntax.loaded_names(value)
