"""Containers of functions: a list, tuple or dict that the function builds once, at the
top of its body, from lambdas and local ``def``s, and only calls the items of. Each
item is then the function it holds, so each call is inlined like any local call.

Before::                                   After (``local_functions`` then inlines)::

    def f(x):                                  def f(x):
        fs = [lambda t: t * x, np.sin]             fs_0 = lambda t: t * x
        s = fs[1](x) + fs[0](2.0)                  s = np.sin(x) + fs_0(2.0)
                                                   def fs_call(index, a0):
                                                       position = range(2)[index]
                                                       if position == 0:
                                                           return fs_0(a0)
                                                       return np.sin(a0)
        for g in fs:                               for g_index in range(2):
            s = s + g(x)                               s = s + fs_call(g_index, x)
        return s                                   return s

What each item denotes is proven from the source: the container's name is assigned
once (by this statement, never a parameter, never deleted), and every read of it is a
call of an item (``fs[k](...)``; an index known only when it runs goes through
``range(n)[index]``, or a dict's keys compared in turn, as Python's lookup would raise),
a loop whose function is only called in its body (``for g in fs``, ``enumerate(fs)``,
``zip(ws, fs)``, a dict's ``items()`` and ``values()``: ``function_table_loops``), or
``len(fs)``. An item
other than a lambda, a local ``def`` or a global name is evaluated once, where the
container was built, into a name of its own (its calls are resolved when they run).
A container of lambdas or local ``def``s used any other way (passed, mutated,
returned, indexed by a slice) is a ``TransformError`` naming it.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field

from srcgrad import syntax
from srcgrad.normalize.function_table_loops import loop_read, rewrite_loop
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
    local = _local_function_names(fn_node)
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


def _local_function_names(fn_node):
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
        elif isinstance(parent.slice, gast.Constant) and _position(table, parent.slice) is None:
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


def _position(table, key):
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


def rewrite_tables(parsed, namer):
    """Rewrite every container of functions of ``parsed.node`` (see the module's
    docstring); a TransformError for one that is not proven."""
    fn_node = parsed.node
    tables = find_tables(fn_node, parsed.fn.__globals__)
    if not tables:
        return
    local = _local_function_names(fn_node)
    stored = set(syntax.names_in(fn_node, gast.Store)) | set(syntax.param_names(fn_node.args))
    inserted = {}
    for table in tables:
        if table.problem is not None:
            raise parsed.error(*table.problem)
        inserted[id(table.stmt)] = _rewrite(table, namer, local, stored)
    body = []
    for stmt in fn_node.body:
        body += inserted.get(id(stmt), [stmt])
    fn_node.body = body


def _rewrite(table, namer, local, stored):
    """The statements replacing ``table.stmt``; rewrites its reads in place."""
    binds, callees = [], []
    for i, item in enumerate(table.items):
        if isinstance(item, gast.Name) and (item.id in local or item.id not in stored) \
                or syntax.dotted_name(item) and syntax.dotted_name(item).split(".")[0] \
                not in stored:
            callees.append(item)   # (a local def, or a name no statement rebinds)
            continue
        name = namer.fresh(f"{table.name}_{i}")
        binds.append(syntax.assign(name, item))
        callees.append(syntax.name(name))
    for sub, call in table.calls:
        if isinstance(sub.slice, gast.Constant):
            _replace(sub, syntax.clone(callees[_position(table, sub.slice)]))
        else:
            binds.append(_dispatcher(table, sub, call, callees, namer))
    for found in table.loops:
        binds += rewrite_loop(table, found, len(callees), namer,
                              lambda sub, call: _dispatcher(table, sub, call, callees, namer))
    for length in table.lengths:
        _replace(length, syntax.const(len(table.items)))
    syntax.set_line(binds, table.stmt.lineno)
    for stmt in binds:
        stmt.col_offset = getattr(stmt, "col_offset", table.stmt.col_offset)
    return binds


def _replace(node, new):
    """Make ``node`` (in place) the node ``new``, keeping where it is in the tree."""
    for name in node._fields:
        if hasattr(node, name):
            delattr(node, name)
    node.__class__ = type(new)
    for name in new._fields:
        setattr(node, name, getattr(new, name, None))


def _dispatcher(table, sub, call, callees, namer):
    """``def T_call(index, a0, ...)`` choosing the item ``index`` selects and calling
    it; the call ``T[index](a0, ...)`` (``call``, whose ``func`` is ``sub``) becomes
    ``T_call(index, a0, ...)``."""
    fname = namer.fresh(f"{table.name}_call")
    index = namer.fresh("index")
    params = [namer.fresh(f"a{i}") for i in range(len(call.args))]
    kwparams = [namer.fresh(f"k_{kw.arg}") for kw in call.keywords]

    def item_call(callee):
        return gast.Return(value=syntax.call(
            syntax.clone(callee), [syntax.name(p) for p in params],
            [(kw.arg, syntax.name(p)) for kw, p in zip(call.keywords, kwparams)]))

    body = []
    if table.keys is None:
        position = namer.fresh("position")
        body.append(syntax.assign(position, gast.Subscript(
            value=syntax.call(syntax.name("range"), [syntax.const(len(callees))]),
            slice=syntax.name(index), ctx=gast.Load())))
        for i, callee in enumerate(callees[:-1]):
            body.append(_if_equal(position, i, item_call(callee)))
        body.append(item_call(callees[-1]))
    else:
        for key, callee in reversed(list(zip(table.keys, callees))):   # (the last one wins)
            body.append(_if_equal(index, key, item_call(callee)))
        body.append(gast.Raise(exc=syntax.call(syntax.name("KeyError"),
                                               [syntax.name(index)]), cause=None))
    fn = syntax.function_def(fname, [index] + params + kwparams, body)
    fn.lineno, fn.col_offset = table.stmt.lineno, table.stmt.col_offset
    syntax.set_line(fn.body, table.stmt.lineno)
    _replace(call, syntax.call(syntax.name(fname), [sub.slice] + call.args
                               + [kw.value for kw in call.keywords]))
    return fn


def _if_equal(name, value, then):
    test = gast.Compare(left=syntax.name(name), ops=[gast.Eq()],
                        comparators=[syntax.const(value)])
    return gast.If(test=test, body=[then], orelse=[])
