"""Containers of functions: which list, tuple or dict of functions a function builds and
only calls the items of, proven from the source (``normalize.function_tables`` rewrites
them; the language fence lets their lambdas through).

A container qualifies when its name is assigned once, at the top of the body (never a
parameter, never deleted), and every read of it is a call of an item (``fs[k](...)``),
a loop whose function is only called in its body (``for g in fs``, ``enumerate(fs)``,
``zip(ws, fs)``, a dict's ``items()`` and ``values()``), or ``len(fs)``; otherwise
``Table.problem`` says why, and its caller refuses it.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field

from srcgrad import syntax
from srcgrad.syntax import gast

KINDS = {gast.List: "list", gast.Tuple: "tuple", gast.Dict: "dict"}


@dataclass
class Table:
    """One container of functions: its statement and what reads it."""
    stmt: gast.Assign
    position: int                  # index of ``stmt`` in the function's body
    items: list                    # the item expressions, in order
    keys: list | None              # a dict's constant keys, else None
    calls: list = field(default_factory=list)    # the Subscript nodes called
    loops: list = field(default_factory=list)    # the loops over it (``TableLoop``)
    lengths: list = field(default_factory=list)  # the ``len(name)`` Call nodes
    problem: tuple | None = None   # (message, node) when not proven

    @property
    def name(self):
        return self.stmt.targets[0].id

    @property
    def kind(self):
        return KINDS[type(self.stmt.value)]


def find_tables(fn_node, namespace):
    """Every container of functions built at the top of ``fn_node``'s body, each with
    its reads, or the reason (``Table.problem``) its items cannot be proven.
    ``namespace``: the function's globals (the builtins the rewrite uses must be
    Python's)."""
    local = local_function_names(fn_node)
    tables = []
    for position, stmt in enumerate(fn_node.body):
        table = _table_of(stmt, position, local)
        if table is not None:
            tables.append(table)
    if not tables:
        return tables
    nodes = syntax.walk(fn_node)
    parents = {}
    for node in nodes:
        for child in gast.iter_child_nodes(node):
            parents[id(child)] = node
    stored = set(syntax.names_in(fn_node, gast.Store)) | set(syntax.param_names(fn_node.args))
    shadowed = {name for name in ("len", "range", "KeyError", "enumerate", "zip")
                if name in stored
                or namespace.get(name, getattr(builtins, name)) is not getattr(builtins, name)}
    for table in tables:
        _find_reads(table, fn_node, nodes, parents, shadowed)
    return tables


def table_lambdas(parsed):
    """``(ids of the lambdas of proven containers, the first unproven container with a
    lambda or None)``, for the language fence."""
    allowed, refused = set(), None
    for table in find_tables(parsed.node, parsed.fn.__globals__):
        lambdas = [item for item in table.items if isinstance(item, gast.Lambda)]
        if table.problem is None:
            allowed.update(id(lam) for lam in lambdas)
        elif lambdas and refused is None:
            refused = table
    return allowed, refused


def local_function_names(fn_node):
    """``{name: position in the body}`` of the local ``def``s and ``name = lambda``."""
    names = {}
    for position, stmt in enumerate(fn_node.body):
        if isinstance(stmt, gast.FunctionDef):
            names[stmt.name] = position
        elif isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Lambda) \
                and len(stmt.targets) == 1 and isinstance(stmt.targets[0], gast.Name):
            names[stmt.targets[0].id] = position
    return names


def _table_of(stmt, position, local):
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name) and type(stmt.value) in KINDS):
        return None
    value = stmt.value
    items = list(value.values if isinstance(value, gast.Dict) else value.elts)
    if not any(isinstance(item, gast.Lambda)
               or isinstance(item, gast.Name) and item.id in local for item in items):
        return None
    table = Table(stmt, position, items, None)
    if isinstance(value, gast.Dict):
        if not all(isinstance(k, gast.Constant) for k in value.keys):
            table.problem = ("a dict of functions whose keys are not literals", stmt)
        else:
            table.keys = [k.value for k in value.keys]
    if any(isinstance(item, gast.Starred) for item in items):
        table.problem = (f"a {table.kind} of functions with a starred item", stmt)
    for item in items:
        if isinstance(item, gast.Name) and local.get(item.id, -1) > position:
            _refuse(table, f"holds `{item.id}` before it is defined", item)
    return table


def _refuse(table, what, node):
    if table.problem is None:
        table.problem = (
            f"the {table.kind} of functions `{table.name}` {what}: such a container is "
            f"supported when it is built once and only its items are called "
            f"(`{table.name}[k](...)`, `for g in {table.name}: ... g(...)`, "
            f"`enumerate`, `zip`, `.items()`, `.values()` in a `for`, `len({table.name})`)", node)


def _find_reads(table, fn_node, nodes, parents, shadowed):
    name = table.name
    own = {id(n) for n in syntax.walk(table.stmt)}
    later = {id(n) for stmt in fn_node.body[table.position + 1:] for n in syntax.walk(stmt)}
    for node in nodes:
        if not (isinstance(node, gast.Name) and node.id == name) or node is table.stmt.targets[0]:
            continue
        if id(node) in own:
            _refuse(table, "is read by its own items", node)
        elif not isinstance(node.ctx, gast.Load):
            _refuse(table, "is assigned, deleted or a parameter more than once", node)
        elif id(node) not in later and not _in_local_function(node, parents, fn_node):
            _refuse(table, "is read before it is built", node)
        else:
            _classify_read(table, node, parents, shadowed)


def _in_local_function(node, parents, fn_node):
    parent = parents.get(id(node))
    while parent is not None and parent is not fn_node:
        if isinstance(parent, (gast.FunctionDef, gast.Lambda)):
            return True
        parent = parents.get(id(parent))
    return False


def _classify_read(table, node, parents, shadowed):
    parent = parents.get(id(node))
    grand = parents.get(id(parent))
    if isinstance(parent, gast.Subscript) and parent.value is node \
            and isinstance(grand, gast.Call) and grand.func is parent:
        if isinstance(parent.slice, gast.Slice):
            _refuse(table, "is sliced", node)
        elif syntax.spreads(grand):
            _refuse(table, "has an item called with `*` or `**` arguments", node)
        elif isinstance(parent.slice, gast.Constant) and item_position(table, parent.slice) is None:
            _refuse(table, f"has no item {parent.slice.value!r}", node)
        elif not isinstance(parent.slice, gast.Constant) and shadowed & {"range", "KeyError"}:
            _refuse(table, "is indexed while `range` or `KeyError` is not Python's", node)
        else:
            table.calls.append((parent, grand))
    elif loop_read(table, node, parents, shadowed) != (None, None):
        found, problem = loop_read(table, node, parents, shadowed)
        if problem:
            _refuse(table, problem, node)
        else:
            table.loops.append(found)
    elif isinstance(parent, gast.Call) and isinstance(parent.func, gast.Name) \
            and parent.func.id == "len" and "len" not in shadowed \
            and parent.args == [node] and not parent.keywords:
        table.lengths.append(parent)
    else:
        _refuse(table, "is used as a value", node)


def item_position(table, key):
    """The item a constant key selects, as Python would (``None``: it has none)."""
    if table.keys is not None:
        try:
            found = {k: i for i, k in enumerate(table.keys)}.get(key.value)
        except TypeError:   # an unhashable literal
            return None
        return found
    value = key.value
    if type(value) not in (int, bool):
        return None
    return range(len(table.items))[value] if -len(table.items) <= value < len(table.items) \
        else None


@dataclass
class TableLoop:
    loop: gast.For
    kind: str          # "plain", "enumerate", "zip", "items" or "values"
    position: int = 0  # the container's place among zip's arguments


def loop_read(table, node, parents, shadowed):
    """``(TableLoop or None, problem or None)`` for the read ``node`` of the container:
    ``(None, None)`` when it is not read by a loop."""
    parent = parents.get(id(node))
    grand = parents.get(id(parent))
    if isinstance(parent, gast.For) and parent.iter is node:
        found = TableLoop(parent, "plain")
    elif isinstance(parent, gast.Call) and isinstance(grand, gast.For) and grand.iter is parent \
            and isinstance(parent.func, gast.Name) and not parent.keywords \
            and parent.func.id in ("enumerate", "zip") and node in parent.args \
            and (parent.func.id == "zip" or parent.args == [node]) \
            and not syntax.spreads(parent):
        if parent.func.id in shadowed:
            return None, f"is looped over while `{parent.func.id}` is not Python's"
        if sum(isinstance(a, gast.Name) and a.id == node.id for a in parent.args) > 1:
            return None, "is given to `zip` twice"
        found = TableLoop(grand, parent.func.id, parent.args.index(node))
    elif isinstance(parent, gast.Attribute) and parent.attr in ("items", "values") \
            and table.kind == "dict" and isinstance(grand, gast.Call) and grand.func is parent \
            and not grand.args and not grand.keywords \
            and isinstance(parents.get(id(grand)), gast.For) \
            and parents[id(grand)].iter is grand:
        found = TableLoop(parents[id(grand)], parent.attr)
    else:
        return None, None
    if "range" in shadowed:
        return None, "is looped over while `range` is not Python's"
    if found.kind in ("enumerate", "zip") and table.kind == "dict":
        return None, f"is given to `{found.kind}`"
    if found.kind == "plain" and table.kind == "dict":
        return found, None   # (its keys are iterated: the loop reads them from a tuple)
    return found, _variable_problem(found, parents)


def function_variable(found):
    """The loop's target name that holds the function, or None."""
    target = found.loop.target
    if found.kind in ("plain", "values"):
        return target if isinstance(target, gast.Name) else None
    if not (isinstance(target, gast.Tuple) and all(isinstance(e, gast.Name)
                                                   for e in target.elts)):
        return None
    place = {"enumerate": 1, "items": 1, "zip": found.position}[found.kind]
    return target.elts[place] if place < len(target.elts) else None


def _variable_problem(found, parents):
    """Why the loop's function variable cannot be read as the item it holds, or None:
    in the body it must only be called (never rebound), and outside the body read only
    where another ``for`` rebinds it (after the loop it would hold the last item)."""
    var = function_variable(found)
    if var is None:
        return "is unpacked by a loop into something other than names"
    loop = found.loop
    inside = {id(n) for stmt in loop.body for n in syntax.walk(stmt)}
    scope = loop
    while parents.get(id(scope)) is not None:
        scope = parents[id(scope)]
    nodes = syntax.walk(scope)
    rebound = {id(n) for other in nodes if isinstance(other, gast.For) and other is not loop
               and var.id in syntax.names_in(other.target, gast.Store)
               for stmt in other.body for n in syntax.walk(stmt)}
    for node in nodes:
        if not isinstance(node, gast.Name) or node.id != var.id or node is var:
            continue
        parent = parents.get(id(node))
        if id(node) in inside:
            ok = isinstance(node.ctx, gast.Load) and isinstance(parent, gast.Call) \
                and parent.func is node and not syntax.spreads(parent)
        else:
            ok = not isinstance(node.ctx, gast.Load) or id(node) in rebound
        if not ok:
            return (f"is looped over by a `for` whose `{var.id}` is not only called in its "
                    "body")
    return None
