"""Code written as templates: ``quote`` parses a snippet once (cached) and gives a fresh
copy with names substituted; ``replace_names`` substitutes names in a tree in place.

    quote("d{x} = g * np.cos(x)", x="a")   ->  ``d{x} = g * np.cos(a)`` as a statement list
"""

from __future__ import annotations

import functools

import gast

from srcgrad.syntax.trees import _CONTEXT, _LEAVES, clone


@functools.lru_cache(maxsize=4096)
def _parse_template(source, mode):
    tree = gast.parse(source)
    for node in gast.walk(tree):   # a template's own positions mean nothing to the user
        if isinstance(node, gast.stmt):
            node.lineno = None
    return tree.body if mode == "stmts" else tree.body[0].value


def quote(source, /, **subs):
    """Parse statements from ``source``, replacing names by ``subs`` (str or node)."""
    return [_instantiate(stmt, subs) for stmt in _parse_template(source, "stmts")]


def quote_expr(source, /, **subs):
    return _instantiate(_parse_template(source, "expr"), subs)


def _instantiate(node, subs):
    """A copy of the template ``node`` with each ``Name`` whose id is a key of ``subs``
    replaced (``clone`` then ``replace_names``, in one pass)."""
    kind = type(node)
    if kind is gast.Name and node.id in subs:
        return _substitute(node, subs[node.id])
    new = kind.__new__(kind)
    fields = new.__dict__
    if kind in _LEAVES and node.__dict__.get("annotation") is None:
        fields.update(node.__dict__)
        return new
    for key, value in node.__dict__.items():
        if isinstance(value, gast.AST) and not isinstance(value, _CONTEXT):
            value = _instantiate(value, subs)
        elif type(value) is list:
            value = [_instantiate(item, subs) if isinstance(item, gast.AST) else item
                     for item in value]
        fields[key] = value
    return new


def replace_names(node, subs):
    """Replace every ``Name`` whose id is a key of ``subs`` (in place; returns node)."""
    if isinstance(node, gast.Name) and node.id in subs:
        return _substitute(node, subs[node.id])

    for field, value in gast.iter_fields(node):
        if isinstance(value, list):
            setattr(node, field, [replace_names(v, subs) if isinstance(v, gast.AST) else v
                                  for v in value])
        elif isinstance(value, gast.AST):
            setattr(node, field, replace_names(value, subs))
    return node


def _substitute(node, replacement):
    if isinstance(replacement, str):
        return gast.Name(id=replacement, ctx=node.ctx, annotation=None, type_comment=None)
    new = clone(replacement)   # (a Name: its fields copied, its context given below)
    if hasattr(new, "ctx"):
        new.ctx = node.ctx
    return new
