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

from srcgrad import syntax
from srcgrad.frontend.function_tables import find_tables, item_position, local_function_names
from srcgrad.normalize.function_table_loops import rewrite_loop
from srcgrad.syntax import gast


def rewrite_tables(parsed, namer):
    """Rewrite every container of functions of ``parsed.node`` (see the module's
    docstring); a TransformError for one that is not proven."""
    fn_node = parsed.node
    tables = find_tables(fn_node, parsed.fn.__globals__)
    if not tables:
        return
    local = local_function_names(fn_node)
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
            _replace(sub, syntax.clone(callees[item_position(table, sub.slice)]))
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
