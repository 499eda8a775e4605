"""Alias analysis over a function in A-normal form: which names may share storage, which
are surely the same object at a statement, and which statements write through a name.

Three facts, each sound for the whole function:

- ``may_share(a, b)``: a points-to over names, flow-insensitive. Every name starts in its
  own storage class; ``a = b``, views and item reads (``b[i]``, ``b.T``,
  ``b.reshape(...)``, ``np.transpose(b)``...), attribute reads and calls that may return
  an argument (user functions) merge the classes; container literals, ``append``,
  ``list(b)`` and ``b + c`` record that a class *holds* another, and reading an item merges
  the reader with everything the container holds. Arithmetic and NumPy calls that
  allocate give fresh storage. A write through ``w`` may change every name whose class
  is ``w``'s or (transitively) holds ``w``'s.
- ``copies_at[stmt]``: names surely bound to the same object just before ``stmt``
  (available copies, a must-analysis: ``z = y`` until either is rebound; joins intersect;
  after a ``for`` loop over a literal ``range`` that surely runs, what held at the end of
  its body).
  The copies (and the views ``views_at``) are computed in ``analysis.copies``.
- ``writes``: ``(stmt, name, kind)`` for ``w[i] = v`` ("item"), a mutating method such as
  ``w.append(v)`` ("method"), and ``w += v`` ("inplace": in place for arrays and lists).

Before: ``z = y; z[0] = v; s = y * y``. After analysis: ``may_share(z, y)``,
``copies_at[z[0] = v] = {y, z}``, ``writes = [(z[0] = v, "z", "item")]``.
"""

from __future__ import annotations

import dataclasses

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.analysis.copies import (
    _BLOCKS,
    _IDENTITY_HELPERS,
    _available_copies,
    _available_views,
)
from srcgrad.syntax import gast

MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update",
    "setdefault", "popitem", "fill", "put", "itemset", "resize", "partition", "setfield",
    "__setitem__", "__delitem__", "__iadd__", "__imul__", "add", "discard"})
# Functions and methods whose result may be a view of (or the very) first argument.
VIEW_FUNCTIONS = frozenset({
    "reshape", "ravel", "transpose", "squeeze", "asarray", "asanyarray", "ascontiguousarray",
    "asfortranarray", "atleast_1d", "atleast_2d", "atleast_3d", "expand_dims", "swapaxes",
    "moveaxis", "rollaxis", "broadcast_to", "broadcast_arrays", "diagonal", "real", "imag",
    "view", "flatten_view", "matrix_transpose", "permute_dims", "split", "array_split",
    "hsplit", "vsplit", "dsplit", "unstack", "flip", "fliplr", "flipud", "rot90",
    "T", "mT", "flat", "base", "data", "iter", "next", "max", "min"})
# Methods whose result is one of the items a container holds (never a view of it).
ITEM_METHODS = frozenset({"get", "values", "items", "keys", "setdefault", "pop", "popitem"})
FRESH_METHODS = frozenset({"copy", "astype", "sum", "mean", "prod", "dot", "tolist",
                           "std", "var", "cumsum", "cumprod", "conj", "round", "clip"})
# Of the container builders, those whose result reads its argument later (not a copy).
_LAZY = frozenset({"reversed", "iter"})


_LOOPS = (gast.For, gast.While)


@dataclasses.dataclass
class AliasFacts:
    parent: dict
    holds: dict                    # class -> classes it holds
    copies_at: dict                # id(stmt) -> frozenset of frozenset({a, b})
    writes: list                   # (stmt, name, kind)
    order: dict                    # id(stmt) -> position in program order
    loads: dict                    # name -> positions where it is read
    loops: dict                    # id(stmt) -> (first, last) positions of each enclosing loop
    is_module: object = None       # name -> bool
    containers: frozenset = frozenset()   # names only ever bound to lists, dicts, tuples
    views_at: dict = dataclasses.field(default_factory=dict)   # id(stmt) -> {view: (base, expr)}
    # name -> bool: a function proven to return only new arrays and keep nothing it is
    # given (``analysis.fresh_results``); its result shares no storage with its arguments
    returns_fresh: object = staticmethod(lambda name: False)

    changes: int = 0               # unions and holds recorded (the fixpoint's measure)
    _members: dict | None = None   # class -> its names (built once the classes are final)
    _holders: dict | None = None   # class -> the classes that hold it (with _members)
    _affected: dict = dataclasses.field(default_factory=dict)   # class -> affected_by

    def find(self, name):
        """The class of ``name`` (halving the path on the way: a chain of ``s = _add``
        rebindings would otherwise make every lookup walk it)."""
        parent = self.parent
        while parent.get(name, name) != name:
            grand = parent.get(parent[name], parent[name])
            parent[name] = grand
            name = grand
        return name

    def affected_by(self, written):
        """Names a write through ``written`` may change (itself included): those of its
        class and of every class that holds it, directly or through others. Found once
        per class, from the classes that hold each class (a walk over every class per
        write made a function of many writes quadratic); the set is shared, read-only."""
        target = self.find(written)
        found = self._affected.get(target)
        if found is None:
            if self._members is None:
                self._members, self._holders = {}, {}
                for name in self.parent:
                    self._members.setdefault(self.find(name), set()).add(name)
                for cls, held in self.holds.items():
                    if self.find(cls) == cls:   # (a stale class holds nothing now)
                        for inner in held:
                            self._holders.setdefault(self.find(inner), set()).add(cls)
            classes, stack = {target}, [target]
            while stack:
                for holder in self._holders.get(stack.pop(), ()):
                    if holder not in classes:
                        classes.add(holder)
                        stack.append(holder)
            found = self._affected[target] = frozenset(
                name for cls in classes for name in self._members.get(cls, ()))
        return found

    def same_object(self, stmt, a, b):
        return frozenset((a, b)) in self.copies_at.get(id(stmt), frozenset())

    def view_through_copies(self, stmt, view, base):
        """``(name, expr)``: ``view`` surely bound as ``expr``, a view of ``name``, which is
        ``base`` or surely the same object as ``base`` just before ``stmt``; else None."""
        names = [base] + sorted(n for pair in self.copies_at.get(id(stmt), ())
                                if base in pair for n in pair if n != base)
        for name in names:
            expr = self.view_of(stmt, view, name)
            if expr is not None:
                return name, expr
        return None

    def view_of(self, stmt, view, base):
        """The expression ``view`` was surely bound to as a view of ``base`` (``base[i:j]``,
        ``base.T``, ``base.reshape(...)``) just before ``stmt``, with no name in it
        rebound since; else None."""
        found = dict(self.views_at.get(id(stmt), ())).get(view)
        return found[1] if found is not None and found[0] == base else None


def analyze_aliases(body, params, is_module=lambda name: False, returns_fresh=None):
    """The ``AliasFacts`` of a function body in A-normal form (``is_module(name)``: a
    module, whose attributes are never storage of the function's; ``returns_fresh(name)``:
    see ``AliasFacts.returns_fresh``)."""
    facts = AliasFacts({p: p for p in params}, {}, {}, [], {}, {}, {}, is_module)
    if returns_fresh is not None:
        facts.returns_fresh = returns_fresh
    _number(body, facts, [])
    facts.containers = _sure_containers(body, params)
    statements = list(syntax.statements(body))
    # Fixpoint of the flow-insensitive classes: a round that goes on records a union (at
    # most one fewer than the names) or a new item held by a class (at most names x classes)
    names = len({n for stmt in statements for n in syntax.names_in(stmt)})
    for _ in fixpoint.rounds(names + 2 * names * names + 2, "the storage classes of names"):
        before = facts.changes
        for stmt in statements:
            _points_to(stmt, facts)
        if facts.changes == before:
            break
    _available_copies(body, frozenset(), facts)
    _available_views(body, frozenset(), facts)
    return facts


def writes_through_names(body):
    """Does some statement of ``body`` write through a name (``w[i] = v``,
    ``w.append(v)``, ``w += v``)? Without one, the analysis has nothing to report."""
    return any(_write_of(stmt) is not None for stmt in syntax.statements(body))


def _number(body, facts, loops):
    for stmt in body:
        facts.order[id(stmt)] = len(facts.order)
        for name in _loaded(stmt):
            facts.loads.setdefault(name, []).append(facts.order[id(stmt)])
        facts.loops[id(stmt)] = list(loops)
        if isinstance(stmt, _LOOPS):
            start = facts.order[id(stmt)]
            _number(stmt.body + stmt.orelse, facts, loops + [(start, None)])
            facts.loops[id(stmt)] = list(loops)
        else:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and isinstance(stmt, _BLOCKS):
                    _number(inner, facts, loops)
        write = _write_of(stmt)
        if write is not None:
            facts.writes.append((stmt,) + write)


def _loaded(stmt):
    """Names read by ``stmt`` itself (a block's test or iterable, not its body)."""
    if isinstance(stmt, gast.If):
        return syntax.loaded_names(stmt.test)
    if isinstance(stmt, gast.While):
        return syntax.loaded_names(stmt.test)
    if isinstance(stmt, gast.For):
        return syntax.loaded_names(stmt.iter)
    if isinstance(stmt, (gast.With, gast.Try)):
        return []
    return syntax.loaded_names(stmt)


def _write_of(stmt):
    """``(name, kind)`` when ``stmt`` writes through a name, else None."""
    if isinstance(stmt, gast.Assign):
        target = stmt.targets[0]
        if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
            return target.value.id, "item"
        if isinstance(target, gast.Name) and getattr(stmt, "inplace", False):
            return target.id, "inplace"
    call = stmt.value if isinstance(stmt, (gast.Assign, gast.Expr)) else None
    if isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) \
            and isinstance(call.func.value, gast.Name) and call.func.attr in MUTATING_METHODS:
        return call.func.value.id, "method"
    return None


def _union(facts, a, b):
    if facts.is_module(a) or facts.is_module(b):
        return
    ra, rb = facts.find(a), facts.find(b)
    facts.parent.setdefault(a, a)
    facts.parent.setdefault(b, b)
    if ra != rb:
        facts.parent[ra] = rb
        facts.holds.setdefault(rb, set()).update(facts.holds.pop(ra, set()))
        facts.changes += 1


def _hold(facts, container, item):
    if facts.is_module(container) or facts.is_module(item):
        return
    facts.parent.setdefault(container, container)
    facts.parent.setdefault(item, item)
    held = facts.holds.setdefault(facts.find(container), set())
    if item not in held:
        held.add(item)
        facts.changes += 1


def _points_to(stmt, facts):
    if isinstance(stmt, gast.For) and isinstance(stmt.target, gast.Name):
        _read_item(facts, stmt.target.id, stmt.iter)
        return
    write = _write_of(stmt)
    if write is not None and write[1] == "method":
        call = stmt.value
        for arg in call.args:
            for name in syntax.loaded_names(arg):
                _hold(facts, write[0], name)   # lst.append(v): lst holds v
    if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript):
        base = stmt.targets[0].value
        if isinstance(base, gast.Name):
            for name in syntax.loaded_names(stmt.value):
                _hold(facts, base.id, name)    # c[k] = v: c holds v
        return
    if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
        return
    target, value = stmt.targets[0].id, stmt.value
    facts.parent.setdefault(target, target)
    if getattr(stmt, "inplace", False):
        _union(facts, target, target)
    _bind(facts, target, value)


def _bind(facts, target, value):
    if isinstance(value, gast.Name):
        _union(facts, target, value.id)
    elif isinstance(value, (gast.Subscript, gast.Attribute)) and syntax.dotted_name(value) \
            is None:
        _read_item(facts, target, value.value)
    elif isinstance(value, gast.Attribute) and isinstance(value.value, gast.Name):
        _read_item(facts, target, value.value)
    elif isinstance(value, (gast.List, gast.Tuple, gast.Dict)):
        items = value.elts if not isinstance(value, gast.Dict) else value.keys + value.values
        for item in items:
            for name in syntax.loaded_names(item):
                _hold(facts, target, name)
    elif isinstance(value, gast.BinOp) and isinstance(value.op, (gast.Add, gast.Mult)):
        for operand in (value.left, value.right):   # list and tuple concatenation
            if isinstance(operand, gast.Name):
                for held in list(facts.holds.get(facts.find(operand.id), ())):
                    _hold(facts, target, held)
    elif isinstance(value, gast.Call):
        _bind_call(facts, target, value)


def _read_item(facts, target, base, view=True):
    """``target = base[i]`` (or an attribute, or a loop item): a view of ``base`` (unless
    not ``view``) or one of the items it holds."""
    if not isinstance(base, gast.Name):
        return
    if view and base.id not in facts.containers:   # an array's item may be a view
        _union(facts, target, base.id)
    merged = set()   # classes joined already (a container read again holds one class)
    for held in list(facts.holds.get(facts.find(base.id), ())):
        cls = facts.find(held)
        if cls not in merged:
            merged.add(cls)
            _union(facts, target, held)


def _bind_call(facts, target, call):
    func = call.func
    dotted = syntax.dotted_name(func) or ""
    name = func.attr if isinstance(func, gast.Attribute) else getattr(func, "id", "")
    args = call.args
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
            and not dotted.startswith(("np.", "math.", "_sg.")):
        if name in ITEM_METHODS:   # d.get(k), lst.pop(): an item
            _read_item(facts, target, func.value, view=False)
        elif name not in FRESH_METHODS:   # x.reshape(...) views x
            _read_item(facts, target, func.value)
    elif dotted.startswith(("np.", "math.")) and name not in VIEW_FUNCTIONS:
        return   # NumPy allocates its results
    elif dotted in _IDENTITY_HELPERS and len(args) == 1:
        _bind(facts, target, args[0])   # the argument itself, unless it is a Variable
        return
    elif dotted.startswith("_sg.") or name in ("len", "range", "float", "int", "bool",
                                                "abs", "sum", "min", "max", "round"):
        return
    elif isinstance(func, gast.Name) and facts.returns_fresh(func.id):
        return   # a new array (or a tuple of new arrays), proven from the callee's source
    if name in ("list", "tuple", "dict", "sorted", "reversed", "iter"):
        for arg in args:   # a new container holding the argument's items
            if isinstance(arg, gast.Name):
                for held in list(facts.holds.get(facts.find(arg.id), ())):
                    _hold(facts, target, held)
                if name in _LAZY or arg.id not in facts.containers:
                    _hold(facts, target, arg.id)   # an array's rows, or a live iterator
        return
    for arg in list(args) + [kw.value for kw in call.keywords]:
        if isinstance(arg, gast.Name):   # the result may be (a view of) any argument
            _read_item(facts, target, arg)


def _sure_containers(body, params):
    """Names every binding of which is a list, dict or tuple display or comprehension
    result, ``list(...)``/``dict(...)``/``tuple(...)``, or a copy of such a name: their
    items are never views of them."""
    bindings = {}
    for stmt in syntax.statements(body):
        for name in _bound_by(stmt):
            bindings.setdefault(name, []).append(
                stmt.value if isinstance(stmt, gast.Assign) and isinstance(
                    stmt.targets[0], gast.Name) and stmt.targets[0].id == name else None)
    sure = {name for name in bindings if name not in params}
    # each round that goes on removes a name: at most as many rounds as names, plus one
    for _ in fixpoint.rounds(len(sure) + 1, "the names surely bound to containers"):
        changed = False
        for name in list(sure):
            if not all(_is_container_value(value, sure) for value in bindings[name]):
                sure.discard(name)
                changed = True
        if not changed:
            break
    return frozenset(sure)


def _bound_by(stmt):
    """Names ``stmt`` itself binds: a block's target, not the statements nested in it
    (``statements`` visits those), except a ``try``'s handlers, which it does not visit."""
    if isinstance(stmt, gast.For):
        return syntax.names_in(stmt.target, gast.Store)
    if isinstance(stmt, gast.With):
        return [name for item in stmt.items if item.optional_vars is not None
                for name in syntax.names_in(item.optional_vars, gast.Store)]
    if isinstance(stmt, gast.Try):
        return [name for handler in stmt.handlers
                for name in syntax.names_in(handler, gast.Store)]
    if isinstance(stmt, (gast.If, gast.While)):
        return []
    return syntax.names_in(stmt, gast.Store)


def _is_container_value(value, sure):
    if isinstance(value, (gast.List, gast.Dict, gast.Tuple)):
        return True
    if isinstance(value, gast.Name):
        return value.id in sure
    return isinstance(value, gast.Call) and isinstance(value.func, gast.Name) \
        and value.func.id in ("list", "dict", "tuple")
