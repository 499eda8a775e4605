"""Default values in generated signatures: the objects the user's function holds.

Python evaluates a default once, where the ``def`` runs; a generated derivative keeps
the user's signature but is defined in another module, where the expression may mean
something else or nothing (``def predict(x, params=params)`` inside a factory). So a
default that is not a literal is printed as a name bound, in the generated module's
namespace, to the very object in ``fn.__defaults__`` / ``fn.__kwdefaults__``.

Before::                                  After (generated, ``params_default`` bound to
                                          the array ``predict`` was defined with)::

    def predict(x, params=params, n=3):       def predict_grad(x, params=params_default, n=3):
"""

from __future__ import annotations

import ast

from srcgrad import syntax
from srcgrad.syntax import gast


def default_bindings(fn, node):
    """``{name: value}`` for ``fn``'s non-literal defaults, named after their parameters
    (``params_default``), as ``node`` (the parsed ``def``, before ``name_defaults``)
    writes them."""
    return {name: value for _, name, value in _non_literal(fn, node)}


def name_defaults(fn, node):
    """Replace ``node``'s non-literal defaults by their names; return the bindings."""
    found = _non_literal(fn, node)
    args = node.args
    for default, name, _ in found:
        for field in ("defaults", "kw_defaults"):
            values = getattr(args, field)
            for i, value in enumerate(values):
                if value is default:
                    values[i] = syntax.name(name)
    return {name: value for _, name, value in found}


def _non_literal(fn, node):
    args = node.args
    positional = args.posonlyargs + args.args
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults,
                     fn.__defaults__ or ()))
    kwdefaults = fn.__kwdefaults__ or {}
    pairs += [(param, default, kwdefaults[param.id])
              for param, default in zip(args.kwonlyargs, args.kw_defaults)
              if default is not None and param.id in kwdefaults]
    taken = None   # (the names in use: found for the first default that needs a name)
    found = []
    for param, default, value in pairs:
        if _is_literal(default) and _holds(default, value):
            continue
        if taken is None:
            taken = set(syntax.names_in(node)) | set(fn.__globals__) \
                | set(fn.__code__.co_freevars)
        name = f"{param.id}_default"
        while name in taken:
            name += "_"
        taken.add(name)
        found.append((default, name, value))
    return found


def _holds(node, value):
    """Is ``value`` what the literal ``node`` writes (``f.__defaults__`` may have been
    reassigned since the ``def`` ran: the function's own objects are then bound)?"""
    try:
        written = ast.literal_eval(ast.unparse(gast.gast_to_ast(node)))
    except (ValueError, SyntaxError, TypeError):
        return False
    return type(written) is type(value) and bool(written == value)


def _is_literal(node):
    if isinstance(node, gast.Constant):
        return True
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        return _is_literal(node.operand)
    if isinstance(node, gast.Tuple):
        return all(_is_literal(e) for e in node.elts)
    return False
