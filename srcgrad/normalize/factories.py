"""Factories: module-level functions that return a closure, called from the function
being differentiated. The closure becomes a local function of the caller, reading the
factory's arguments from fresh names assigned where the factory was called::

    def step(a):                              def f(x, a):
        return lambda x: x - 0.05 * (x**2 - a)        def step_closure(x):
                                                          return x - 0.05 * (x**2 - step_a)
    def f(x, a):                                      for k in range(20):
        for k in range(20):               ->              step_a = a
            x = step(a)(x)                                x = step_closure(x)
        return x                                      return x

and ``g = make(c)`` (``g`` bound nowhere else in ``f``) becomes ``make_c = c`` there and a
local function ``g``. The local function is then inlined at its calls like any other,
so the closure's values carry derivatives. The factory must be a function of the
caller's module whose body is ``return lambda ...`` or ``def inner(...): ...`` followed
by ``return inner`` (a docstring allowed), taking positional arguments given as names,
constants or attributes (evaluated where the factory was called, as Python does, but
before the rest of their statement: so nothing that could have an effect). The factory
is guarded like an inlined function. Any other use of a factory's result is a call of
a value, resolved when it runs.
"""

from __future__ import annotations

import copy
import types

from srcgrad import syntax
from srcgrad.errors import TransformError
from srcgrad.frontend.fence import check_function
from srcgrad.frontend.parse import parse_function
from srcgrad.syntax import gast

_SKIPPED = (gast.FunctionDef, gast.Lambda, gast.ListComp, gast.DictComp, gast.GeneratorExp,
            gast.SetComp)


def inline_factories(parsed, namer):
    """Rewrite ``parsed.node`` in place as the module docstring shows."""
    node = parsed.node
    stores = _store_counts(node)
    local = set(stores) | set(syntax.param_names(node.args))
    defs = []
    node.body = _block(node.body, parsed, namer, local, stores, defs)
    node.body[:0] = defs


def _store_counts(node):
    counts = {}
    for name in syntax.names_in(node, gast.Store):
        counts[name] = counts.get(name, 0) + 1
    return counts


def _block(body, parsed, namer, local, stores, defs):
    out = []
    for stmt in body:
        if isinstance(stmt, _SKIPPED):
            out.append(stmt)
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], gast.stmt):
                setattr(stmt, field, _block(inner, parsed, namer, local, stores, defs))
        for handler in getattr(stmt, "handlers", None) or ():
            handler.body = _block(handler.body, parsed, namer, local, stores, defs)
        out += _statement(stmt, parsed, namer, local, stores, defs)
    return out


def _statement(stmt, parsed, namer, local, stores, defs):
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Call) \
            and stores.get(stmt.targets[0].id) == 1:
        found = _factory(parsed, stmt.value, local, namer, whole_statement=True)
        if found is not None:
            binds, fn = _closure(found, stmt.value, stmt.targets[0].id, namer, stmt)
            defs.append(fn)
            return binds
    before = []
    for call in _calls_of_calls(stmt):
        found = _factory(parsed, call.func, local, namer)
        if found is None:
            continue
        name = namer.fresh(f"{found[0].name}_closure")
        binds, fn = _closure(found, call.func, name, namer, stmt)
        defs.append(fn)
        before += binds
        call.func = syntax.name(name)
    return before + [stmt]


def _calls_of_calls(stmt):
    """Calls ``F(args)(...)`` in ``stmt``'s own expressions (not in nested blocks,
    functions, lambdas or comprehensions)."""
    children = []
    syntax.add_children(stmt, children)
    stack = [child for child in children if not isinstance(child, gast.stmt)]
    while stack:
        node = stack.pop()
        if isinstance(node, _SKIPPED):
            continue
        if type(node) is gast.Call and isinstance(node.func, gast.Call):
            yield node
        syntax.add_children(node, stack)


def _factory(parsed, call, local, namer, whole_statement=False):
    """``(factory def, inner FunctionDef or Lambda)`` when ``call`` calls a factory
    (``whole_statement``: the call is all its statement computes, so its arguments are
    evaluated where they were; else they must be plain)."""
    if not isinstance(call.func, gast.Name) or call.func.id in local or call.keywords \
            or not (whole_statement or all(_plain(a) for a in call.args)):
        return None
    try:
        fn = parsed.resolve(call.func.id)
    except KeyError:
        return None
    if not isinstance(fn, types.FunctionType) or fn.__closure__ is not None \
            or fn.__globals__ is not parsed.fn.__globals__ or fn.__defaults__ \
            or fn.__kwdefaults__ or fn.__code__.co_flags & 0x0C:
        return None
    node = _checked(fn)
    inner = None if node is None else _returned_closure(node)
    params = [a.id for a in node.args.args]
    if inner is None or node.args.posonlyargs or node.args.kwonlyargs \
            or len(params) != len(call.args):
        return None
    free = set(syntax.loaded_names(inner)) - set(params) - _bound_in(inner)
    if free & local:   # its globals would read the caller's locals
        return None
    parsed.assumptions.setdefault(call.func.id, fn)   # guarded, as an inlined function
    namer.reserve(free)
    return node, inner


def _checked(fn):
    """``fn``'s tree, through the language fence (a returned lambda checked as the
    ``def`` it becomes), or None."""
    try:
        parsed = copy.copy(parse_function(fn))
        parsed.node = node = syntax.clone(parsed.node)
        closure = _returned_closure(node)
        if isinstance(closure, gast.Lambda):   # (the fence refuses a lambda there)
            body = node.body[:-1]
            lifted = gast.FunctionDef(name="_closure", args=closure.args,
                                      body=[gast.Return(value=closure.body)],
                                      decorator_list=[], returns=None, type_comment=None,
                                      type_params=[])
            syntax.set_line([lifted], node.body[-1].lineno)
            node.body = body + [lifted, gast.Return(value=syntax.name("_closure"))]
            check_function(parsed)
            node.body = body + [gast.Return(value=closure)]
        else:
            check_function(parsed)
        return node
    except (TransformError, OSError, TypeError, SyntaxError):
        return None


def _returned_closure(node):
    body = node.body
    if body and isinstance(body[0], gast.Expr) and isinstance(body[0].value, gast.Constant):
        body = body[1:]
    if len(body) == 1 and isinstance(body[0], gast.Return) \
            and isinstance(body[0].value, gast.Lambda):
        return body[0].value
    if len(body) == 2 and isinstance(body[0], gast.FunctionDef) \
            and isinstance(body[1], gast.Return) and isinstance(body[1].value, gast.Name) \
            and body[1].value.id == body[0].name and not body[0].decorator_list:
        return body[0]
    return None


def _bound_in(inner):
    names = set(syntax.param_names(inner.args))
    return names | {n.id for n in gast.walk(inner)
                    if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}


def _plain(expr):
    return all(isinstance(n, (gast.Name, gast.Constant, gast.Attribute, gast.Load,
                              gast.Subscript, gast.Slice, gast.Tuple))
               for n in gast.walk(expr))


def _closure(found, call, name, namer, stmt):
    """``([param_k = arg_k ...], def name(...))`` for the factory call ``call``."""
    factory, inner = found
    params = [a.id for a in factory.args.args]
    renaming = {p: syntax.name(namer.fresh(f"{factory.name}_{p}")) for p in params}
    binds = [syntax.assign(renaming[p].id, arg) for p, arg in zip(params, call.args)]
    inner = syntax.clone(inner)
    if isinstance(inner, gast.Lambda):
        body = [gast.Return(value=inner.body)]
    else:
        body = inner.body
    shadowed = _bound_in(inner)
    body = [syntax.replace_names(stmt_, {p: v for p, v in renaming.items()
                                         if p not in shadowed}) for stmt_ in body]
    fn = gast.FunctionDef(name=name, args=inner.args, body=body, decorator_list=[],
                          returns=None, type_comment=None, type_params=[])
    syntax.set_line(binds + [fn], stmt.lineno)
    for node in gast.walk(fn):   # the closure's lines are the caller's call line
        if hasattr(node, "lineno"):
            node.lineno = stmt.lineno
    fn.col_offset = getattr(stmt, "col_offset", 0)
    return binds, fn
