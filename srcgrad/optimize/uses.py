"""How each statement of generated code uses names, found in one walk of it.

Several passes ask the same questions of a sweep: which names it reads (and whether a
read is a runtime helper's shape argument, ``_sg.unbroadcast(g, x)``'s ``x``), which it
binds, which a nested function, lambda or generator reads (code that may run later).
``uses_of`` answers them all from one walk of a statement, where asking each question
of its own walk made a long sweep's optimization several walks of it.

Before: ``d_x = _sg.unbroadcast(g * k, x)``.
After: ``Uses`` with shape_reads ``['x']``, other_reads ``['_sg', 'g', 'k']``, stores
``['d_x']``, other_binds, deferred and scoped ``[]`` (names in walk order, with repeats),
helpers ``['unbroadcast']`` (the runtime helpers it calls, ``_sg.<name>``) and
helper_calls (those calls' nodes).

``UseCache`` keeps each simple statement's ``Uses`` while ``optimize_sweeps`` runs its
passes, so a sweep is walked once, not once per pass: a pass that rewrites a statement
in place tells it (``forget``).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis.cfg import statement_defs_uses
from srcgrad.syntax import gast

# runtime helper -> the position of the argument it reads only for its shape
SHAPE_ARGUMENTS = {"unbroadcast": 1, "sum_adjoint": 1, "mean_adjoint": 1, "zeros_like": 0,
                   "slots_like": 0, "expand_summed": 1, "spread_to": 1,
                   "unbroadcast_product": 2}
_CHILD_FIELDS: dict = {}   # node class -> its fields that may hold nodes
_LEAF_FIELDS = frozenset({"ctx", "id", "attr", "type_comment", "kind"})
DEFERRED = (gast.Lambda, gast.FunctionDef, gast.AsyncFunctionDef, gast.GeneratorExp)
_DEFERRED_KINDS = frozenset(DEFERRED)
# Scopes of their own (what may run later, classes and comprehensions): ``Uses.scoped``
SCOPES = DEFERRED + (gast.ClassDef, gast.ListComp, gast.SetComp, gast.DictComp)
_SCOPE_KINDS = frozenset(SCOPES)


class Uses:
    """The names one statement uses, each list in walk order with repeats."""

    __slots__ = ("shape_reads", "other_reads", "reads", "stores", "other_binds", "binds",
                 "deferred", "scoped", "helper_calls", "defs_uses")

    def __init__(self, shape_reads, other_reads, stores, other_binds, deferred, scoped,
                 helper_calls):
        self.shape_reads = shape_reads   # read as a shape argument (``shape_argument``)
        self.other_reads = other_reads   # read in any other way
        self.reads = shape_reads + other_reads
        self.stores = stores             # assigned
        self.other_binds = other_binds   # deleted, or a nested function's parameters
        self.binds = stores + other_binds
        self.deferred = deferred         # read inside a nested function, lambda, generator
        self.scoped = scoped             # read inside any scope of its own (``SCOPES``)
        self.helper_calls = helper_calls   # each call of a runtime helper (``_sg`` attribute)
        self.defs_uses = None            # (see ``UseCache.defs_uses``)

    @property
    def helpers(self):
        """The name of each runtime helper called (``unbroadcast`` for a call of
        ``_sg.unbroadcast``), as the calls are now (a pass may give a call another
        helper that reads its names in the same roles)."""
        return [call.func.attr for call in self.helper_calls]


def shape_argument(node):
    """The argument of a call of a runtime helper that reads it only for its shape."""
    func = node.func
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) and \
            func.value.id == "_sg" and func.attr in SHAPE_ARGUMENTS:
        position = SHAPE_ARGUMENTS[func.attr]
        if position < len(node.args) and not any(isinstance(a, gast.Starred)
                                                 for a in node.args):
            return node.args[position]
    return None


def uses_of(node):
    """The ``Uses`` of the tree ``node`` (a statement, its nested blocks included)."""
    shape_reads, other_reads, stores, other_binds, deferred, scoped = [], [], [], [], [], []
    helper_calls = []
    templates = set()   # ids of the Name nodes that are shape arguments
    nodes = [node]
    append, extend = nodes.append, nodes.extend
    name_class, constant_class, load, store = gast.Name, gast.Constant, gast.Load, gast.Store
    call_class, binop_class, attribute_class = gast.Call, gast.BinOp, gast.Attribute
    for current in nodes:   # breadth-first: a call is seen before its arguments
        kind = type(current)
        if kind is name_class:
            if not isinstance(current.ctx, load):
                (stores if isinstance(current.ctx, store) else other_binds).append(current.id)
            elif id(current) in templates:
                shape_reads.append(current.id)
            else:
                other_reads.append(current.id)
            if current.annotation is not None:
                append(current.annotation)
        elif kind is constant_class:
            continue
        elif kind is binop_class:   # (the common nodes: their children directly)
            append(current.left)
            append(current.right)
        elif kind is attribute_class:
            append(current.value)
        elif kind is call_class:
            func = current.func
            if type(func) is attribute_class and type(func.value) is name_class \
                    and func.value.id == "_sg":
                helper_calls.append(current)
                if func.attr in SHAPE_ARGUMENTS:
                    argument = shape_argument(current)
                    if type(argument) is name_class:
                        templates.add(id(argument))
            append(func)
            extend(current.args)
            extend(current.keywords)
        else:
            if kind in _SCOPE_KINDS:
                loaded = syntax.loaded_names(current)
                scoped.extend(loaded)
                if kind in _DEFERRED_KINDS:
                    deferred.extend(loaded)
            _add_children(current, kind, append)
    return Uses(shape_reads, other_reads, stores, other_binds, deferred, scoped,
                helper_calls)


def _add_children(node, kind, append):
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
    for field in fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, gast.AST):
                    append(item)
        elif isinstance(value, gast.AST):
            append(value)


# Statements whose ``Uses`` a ``UseCache`` keeps (the others hold blocks that the passes
# change: found afresh each time)
_SIMPLE = frozenset({gast.Assign, gast.AugAssign, gast.Expr, gast.Return, gast.Pass})


class UseCache:
    """``Uses`` of statements, each simple statement's found once and kept until
    ``forget`` (a pass changed it in place)."""

    def __init__(self):
        # id(stmt) -> its Uses, and id(stmt) -> stmt: the statement is kept alive while
        # its entry is here, so no other object has its id meanwhile
        self._found, self._kept = {}, {}

    def of(self, stmt):
        found = self._found.get(id(stmt))
        if found is not None:
            return found
        uses = uses_of(stmt)
        if type(stmt) in _SIMPLE:
            self._found[id(stmt)] = uses
            self._kept[id(stmt)] = stmt
        return uses

    def forget(self, stmt):
        self._found.pop(id(stmt), None)
        self._kept.pop(id(stmt), None)

    def reads(self, body):
        """Every name ``body`` reads, as a set."""
        names = set()
        for stmt in body:
            names.update(self.of(stmt).reads)
        return names

    def binds(self, body):
        """Every name ``body`` binds (assigns, deletes, or a nested function's
        parameters), as a set."""
        names = set()
        for stmt in body:
            names.update(self.of(stmt).binds)
        return names

    def scoped(self, body):
        """Every name read inside a scope of its own in ``body`` (a nested function,
        lambda, class or comprehension: code that may run later), as a set."""
        names = set()
        for stmt in body:
            names.update(self.of(stmt).scoped)
        return names

    def defs_uses(self, stmt):
        """``analysis.cfg.statement_defs_uses(stmt)``: the names a simple statement
        defines and reads (in no particular order)."""
        uses = self.of(stmt)
        if uses.defs_uses is None:
            uses.defs_uses = _defs_uses(stmt, uses)
        return uses.defs_uses


def _defs_uses(stmt, uses):
    kind = type(stmt)
    if kind is gast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is gast.Name:
        return [stmt.targets[0].id], uses.reads
    if kind is gast.AugAssign and type(stmt.target) is gast.Name:
        return [stmt.target.id], [stmt.target.id] + uses.reads
    if kind is gast.Expr:
        return [], uses.reads
    return statement_defs_uses(stmt)
