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

from dataclasses import dataclass

from srcgrad import syntax
from srcgrad.syntax import gast


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
