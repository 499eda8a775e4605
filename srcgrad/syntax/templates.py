"""Code written as templates: ``quote`` parses a snippet once (cached) and gives a fresh
copy with names substituted; ``replace_names`` substitutes names in a tree in place.

    quote("d{x} = g * np.cos(x)", x="a")   ->  ``d{x} = g * np.cos(a)`` as a statement list

A template used often is compiled into a Python function that builds the copy directly
(one dict display per node) instead of walking the template; both give the same tree.
"""

from __future__ import annotations

import ast
import functools

import gast

from srcgrad.syntax.convert import to_gast
from srcgrad.syntax.trees import _CONTEXT, _LEAVES, clone, make


@functools.lru_cache(maxsize=4096)
def _parse_template(source, mode):
    tree = to_gast(ast.parse(source))
    for node in gast.walk(tree):   # a template's own positions mean nothing to the user
        if isinstance(node, gast.stmt):
            node.lineno = None
    return tree.body if mode == "stmts" else tree.body[0].value


def quote(source, /, **subs):
    """Parse statements from ``source``, replacing names by ``subs`` (str or node)."""
    return _template(source, "stmts").instantiate(subs)


def quote_expr(source, /, **subs):
    return _template(source, "expr").instantiate(subs)


# Compiling a template costs about as much as copying it fifty times by walking it (and
# saves about half of each copy after): the templates of a long function are compiled.
_USES_BEFORE_COMPILING = 50


@functools.lru_cache(maxsize=4096)
def _template(source, mode):
    return _Template(_parse_template(source, mode))


class _Template:
    """A parsed template (a statement list or an expression) and, once it has been used
    ``_USES_BEFORE_COMPILING`` times, the function that builds its copies."""

    __slots__ = ("tree", "uses", "build")

    def __init__(self, tree):
        self.tree, self.uses, self.build = tree, 0, None

    def instantiate(self, subs):
        if self.build is None:
            self.uses += 1
            if self.uses < _USES_BEFORE_COMPILING:
                if isinstance(self.tree, list):
                    return [_instantiate(stmt, subs) for stmt in self.tree]
                return _instantiate(self.tree, subs)
            self.build = _compiled_builder(self.tree)
        return self.build(subs)


def _compiled_builder(tree):
    """``build(subs)``: what ``_instantiate`` gives for ``tree`` (or each statement of a
    list), written out as nested dict displays. ``_instantiate`` itself when the
    template is too deep for Python to compile the builder."""
    constants = []

    def constant(value):
        if value is None or type(value) in (bool, int, str):
            return repr(value)
        constants.append(value)
        return f"K[{len(constants) - 1}]"

    def copy(node):
        kind = type(node)
        if kind in _LEAVES and node.__dict__.get("annotation") is None:
            fields = {key: constant(value) for key, value in node.__dict__.items()}
        else:
            fields = {}
            for key, value in node.__dict__.items():
                if isinstance(value, gast.AST) and not isinstance(value, _CONTEXT):
                    fields[key] = build(value)
                elif type(value) is list:
                    fields[key] = "[" + ", ".join(
                        build(item) if isinstance(item, gast.AST) else constant(item)
                        for item in value) + "]"
                else:
                    fields[key] = constant(value)
        items = ", ".join(f"{key!r}: {code}" for key, code in fields.items())
        return f"make({constant(kind)}, {{{items}}})"

    def build(node):
        if type(node) is gast.Name:   # substituted when its id is a key of ``subs``
            return (f"(substitute({constant(node)}, subs[{node.id!r}]) "
                    f"if {node.id!r} in subs else {copy(node)})")
        return copy(node)

    try:
        body = "[" + ", ".join(map(build, tree)) + "]" if isinstance(tree, list) \
            else build(tree)
        namespace = {"K": constants, "make": make, "substitute": _substitute}
        exec(compile(f"def build(subs):\n    return {body}\n", "<srcgrad template>",
                     "exec"), namespace)
    except (SyntaxError, RecursionError, MemoryError):
        if isinstance(tree, list):
            return lambda subs: [_instantiate(stmt, subs) for stmt in tree]
        return functools.partial(_instantiate, tree)
    return namespace["build"]




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
    if type(replacement) is str:   # (the fields gast.Name(id=..., ctx=...) would set)
        return make(gast.Name, {"id": replacement, "ctx": node.ctx, "annotation": None,
                                 "type_comment": None})
    kind = type(replacement)
    if kind in _LEAVES and replacement.__dict__.get("annotation") is None:
        fields = dict(replacement.__dict__)   # (what clone copies)
        if kind is gast.Name:
            fields["ctx"] = node.ctx
        return make(kind, fields)
    new = clone(replacement)   # (a Name: its fields copied, its context given below)
    if hasattr(new, "ctx"):
        new.ctx = node.ctx
    return new
