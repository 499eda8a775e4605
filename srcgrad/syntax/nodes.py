"""Build gast nodes: names, constants, assignments, calls, tuples, ``def``s, and the
small questions asked of a node (``is_atom``, ``dotted_name``, ``spreads``...).

    name("x", store=True)        ->  the target ``x`` of an assignment
    assign("y", call("np.sin", [name("x")]))   ->  ``y = np.sin(x)``
"""

from __future__ import annotations

import ast

import gast

from srcgrad.syntax.convert import to_gast
from srcgrad.syntax.templates import quote_expr
from srcgrad.syntax.trees import clone, make


def parse(source):
    """Parse module source into a gast tree."""
    return to_gast(ast.parse(source))


# Expression contexts hold nothing: one of each is shared (as ``clone`` shares them).
_LOAD, _STORE = gast.Load(), gast.Store()


def name(identifier, store=False):
    ctx = _STORE if store else _LOAD
    return make(gast.Name, {"id": identifier, "ctx": ctx, "annotation": None,
                            "type_comment": None})


def param(identifier):
    return gast.Name(id=identifier, ctx=gast.Param(), annotation=None, type_comment=None)


def const(value):
    return make(gast.Constant, {"value": value, "kind": None})


def assign(target, value):
    """``target = value``; ``target`` is a name string or a store-context node."""
    if isinstance(target, str):
        target = name(target, store=True)
    return make(gast.Assign, {"targets": [target], "value": value, "type_comment": None})


def call(func, args=(), keywords=()):
    if isinstance(func, str):
        func = quote_expr(func)
    kws = [gast.keyword(arg=k, value=v) for k, v in keywords]
    return gast.Call(func=func, args=list(args), keywords=kws)


def tuple_of(elts, store=False):
    ctx = _STORE if store else _LOAD
    return gast.Tuple(elts=list(elts), ctx=ctx)


def param_names(arguments):
    """Every parameter name of a gast ``arguments`` node, in signature order."""
    names = [a.id for a in arguments.posonlyargs + arguments.args]
    if arguments.vararg is not None:
        names.append(arguments.vararg.id)
    names += [a.id for a in arguments.kwonlyargs]
    if arguments.kwarg is not None:
        names.append(arguments.kwarg.id)
    return names


def function_def(fname, params, body, defaults=(), docstring=None, arguments=None):
    """A ``def`` with positional parameters ``params`` (strings), or with a copy of the
    signature ``arguments`` (a gast ``arguments`` node) when given."""
    if arguments is not None:
        args = clone(arguments)
    else:
        args = gast.arguments(
            args=[param(p) for p in params], posonlyargs=[], vararg=None, kwonlyargs=[],
            kw_defaults=[], kwarg=None, defaults=list(defaults))
    if docstring:
        body = [gast.Expr(value=const(docstring))] + list(body)
    return gast.FunctionDef(name=fname, args=args, body=list(body) or [gast.Pass()],
                            decorator_list=[], returns=None, type_comment=None,
                            type_params=[])


def emptied_block(stmt, field):
    """What ``stmt``'s block ``field`` becomes when a pass removed all its statements:
    ``pass`` where Python needs a statement (a body, the ``finally`` of a ``try`` without
    handlers), else nothing."""
    needed = field == "body" or (field == "finalbody" and isinstance(stmt, gast.Try)
                                 and not stmt.handlers)
    return [gast.Pass()] if needed else []


def is_atom(node):
    """A name or a literal: what A-normal form allows as an operand."""
    return isinstance(node, (gast.Name, gast.Constant))


def is_negative_literal(node):
    """``-1``, ``-0.5``: a literal the parser gives as a unary minus on a constant."""
    return (isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub)
            and isinstance(node.operand, gast.Constant)
            and type(node.operand.value) in (int, float))


def spreads(call):
    """Does ``call`` unpack arguments (``f(*xs)``, ``f(**kw)``)?"""
    return any(isinstance(a, gast.Starred) for a in call.args) \
        or any(kw.arg is None for kw in call.keywords)


def index_value(index):
    """A subscript index as an ordinary expression (``1:3`` -> ``slice(1, 3)``), so it
    can be passed to a function."""
    if isinstance(index, gast.Slice):
        bounds = [b if b is not None else const(None)
                  for b in (index.lower, index.upper, index.step)]
        if index.step is None:
            bounds = bounds[:2]
        return call("slice", bounds)
    if isinstance(index, gast.Tuple):
        return gast.Tuple(elts=[index_value(e) for e in index.elts], ctx=gast.Load())
    return index


def dotted_name(node):
    """``np.linalg.inv`` for an Attribute chain rooted at a Name, else None."""
    kind = type(node)
    if kind is gast.Name:
        return node.id
    if kind is gast.Attribute and type(node.value) is gast.Name:   # (most: ``np.sin``)
        return f"{node.value.id}.{node.attr}"
    parts = []
    while isinstance(node, gast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, gast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None
