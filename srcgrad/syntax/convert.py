"""The gast tree of a stdlib ``ast`` tree, built as ``gast.ast_to_gast`` builds it (the same
nodes, fields, positions and field order) for the Python versions whose ``ast`` gast
maps one to one but for parameters, names and a few statements: one converter per node
class, made on first use, sets each node's fields at once instead of going through
gast's generic visitor.

    to_gast(ast.parse("y = x"))  ->  gast Module(body=[Assign(targets=[Name(y)], ...)])

On other Python versions ``to_gast`` is ``gast.ast_to_gast`` itself.
"""

from __future__ import annotations

import ast
import sys

import gast

from srcgrad.syntax.trees import make

_POSITIONS = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def to_gast(tree):
    """The gast tree of a stdlib ``ast`` tree (``parse`` without parsing again)."""
    if not _SUPPORTED:
        return gast.ast_to_gast(tree)
    return _convert(tree)


_SUPPORTED = (3, 8) <= sys.version_info[:2] < (3, 12)   # (the visitors mirrored below)
_CONVERTERS: dict[type, object] = {}


def _convert(node):
    kind = type(node)
    convert = _CONVERTERS.get(kind)
    if convert is None:
        convert = _CONVERTERS[kind] = _SPECIAL.get(kind.__name__) or _generic(kind)
    return convert(node)


def _value(value):
    if isinstance(value, ast.AST):
        return _convert(value)
    if isinstance(value, list):
        return [_value(item) for item in value]
    return value


def _generic(kind):
    """gast's generic visitor: the gast class of the same name, given the fields the
    node has (in the ``ast`` class's order), then its positions."""
    target = getattr(gast, kind.__name__, None)
    fields, attributes = kind._fields, kind._attributes

    def convert(node):
        if target is None:
            return None   # (not a gast node: the generic visitor drops it)
        given = node.__dict__
        new = make(target, {f: _value(given[f]) for f in fields if f in given})
        placed = new.__dict__
        for attr in attributes:
            if attr in given:
                placed[attr] = given[attr]
        return new
    return convert


def _ast_location(new, old):
    """``ast.copy_location``: lineno and col_offset unless None, the end ones if set."""
    given, placed = old.__dict__, new.__dict__
    for attr in _POSITIONS:
        if attr in given and (given[attr] is not None or attr.startswith("end_")):
            placed[attr] = given[attr]
    return new


def _gast_location(new, old):
    """``gast.copy_location``: every position the old node has."""
    given, placed = old.__dict__, new.__dict__
    for attr in _POSITIONS:
        if attr in given:
            placed[attr] = given[attr]
    return new


def _name(node):
    return _ast_location(make(gast.Name, {"id": node.id, "ctx": _convert(node.ctx),
                                          "annotation": None, "type_comment": None}), node)


def _arg(node):
    return _ast_location(make(gast.Name, {
        "id": node.arg, "ctx": make(gast.Param, {}), "annotation": _value(node.annotation),
        "type_comment": _value(node.type_comment)}), node)


def _except_handler(node):
    if not node.name:
        return _generic(ast.ExceptHandler)(node)
    name = make(gast.Name, {"id": node.name, "ctx": make(gast.Store, {}),
                            "annotation": None, "type_comment": None})
    return _ast_location(make(gast.ExceptHandler, {
        "type": _value(node.type), "name": name, "body": _value(node.body)}), node)


def _function_def(target):
    def convert(node):
        return _gast_location(make(target, {
            "name": node.name, "args": _value(node.args), "body": _value(node.body),
            "decorator_list": _value(node.decorator_list), "returns": _value(node.returns),
            "type_comment": _value(node.type_comment), "type_params": []}), node)
    return convert


def _class_def(node):
    return _gast_location(make(gast.ClassDef, {
        "name": node.name, "bases": _value(node.bases), "keywords": _value(node.keywords),
        "body": _value(node.body), "decorator_list": _value(node.decorator_list),
        "type_params": []}), node)


_SPECIAL = {"Name": _name, "arg": _arg, "ExceptHandler": _except_handler,
            "FunctionDef": _function_def(gast.FunctionDef),
            "AsyncFunctionDef": _function_def(gast.AsyncFunctionDef), "ClassDef": _class_def}
