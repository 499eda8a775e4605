"""Loops over a container of functions (``normalize.function_tables``): which loops are
read, and the loop each becomes, with its item's calls going through a dispatcher.

Before::                                    After::

    for g in fs:                                for g_index in range(2):
        s = s + g(x)                                s = s + fs_call(g_index, x)
    for i, g in enumerate(fs):                  for g_index in range(2):
        ...                                         i = g_index
    for w, g in zip(ws, fs):                    for w, g_index in zip(ws, range(2)):
    for name, act in acts.items():              for act_key in ('tanh', 'sin'):
                                                    name = act_key
    for act in acts.values():                   for act_key in ('tanh', 'sin'):
    for name in acts:                           for name in ('tanh', 'sin'):

The function's loop variable must be a name that the loop's body only calls and no other
statement binds; any other loop over such a container is refused by its caller.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.frontend.function_tables import function_variable
from srcgrad.syntax import gast


def rewrite_loop(table, found, count, namer, dispatch):
    """Rewrite ``found``'s loop in place; ``dispatch(sub, call)`` turns the call ``call``
    of ``sub`` (``T[index]``) into a dispatcher's and returns that ``def``. Returns the
    dispatchers."""
    loop = found.loop
    keys = syntax.tuple_of([syntax.const(k) for k in dict.fromkeys(table.keys or ())])
    if found.kind == "plain" and table.kind == "dict":
        loop.iter = keys
        return []
    var = function_variable(found)
    index = namer.fresh(f"{var.id}_key" if table.kind == "dict" else f"{var.id}_index")
    dispatchers = []
    for stmt in loop.body:
        for node in syntax.walk(stmt):
            if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                    and node.func.id == var.id:
                sub = gast.Subscript(value=syntax.name(table.name), slice=syntax.name(index),
                                     ctx=gast.Load())
                node.func = sub
                dispatchers.append(dispatch(sub, node))
    positions = syntax.call(syntax.name("range"), [syntax.const(count)])
    if found.kind == "zip":
        loop.iter.args[found.position] = positions
        loop.target.elts[found.position] = syntax.name(index, store=True)
        return dispatchers
    first = loop.target.elts[0] if found.kind in ("enumerate", "items") else None
    loop.iter = keys if table.kind == "dict" else positions
    loop.target = syntax.name(index, store=True)
    if first is not None:
        bind = syntax.assign(syntax.name(first.id, store=True), syntax.name(index))
        syntax.set_line([bind], loop.lineno)
        loop.body.insert(0, bind)
    return dispatchers
