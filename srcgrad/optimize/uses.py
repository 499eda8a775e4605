"""How each statement of generated code uses names, found in one walk of it.

Several passes ask the same questions of a sweep: which names it reads (and whether a
read is a runtime helper's shape argument, ``_sg.unbroadcast(g, x)``'s ``x``), which it
binds, which a nested function, lambda or generator reads (code that may run later).
``uses_of`` answers them all from one walk of a statement, where asking each question
of its own walk made a long sweep's optimization several walks of it.

Before: ``d_x = _sg.unbroadcast(g * k, x)``.
After: ``Uses(shape_reads=['x'], other_reads=['g', 'k'], stores=['d_x'], deferred=[])``
(names in walk order, repeated as often as they occur).
"""

from __future__ import annotations

import dataclasses

from srcgrad import syntax
from srcgrad.syntax import gast

# runtime helper -> the position of the argument it reads only for its shape
SHAPE_ARGUMENTS = {"unbroadcast": 1, "sum_adjoint": 1, "mean_adjoint": 1, "zeros_like": 0,
                   "slots_like": 0, "expand_summed": 1, "spread_to": 1}
_CHILD_FIELDS: dict = {}   # node class -> its fields that may hold nodes
_LEAF_FIELDS = frozenset({"ctx", "id", "attr", "type_comment", "kind"})
DEFERRED = (gast.Lambda, gast.FunctionDef, gast.AsyncFunctionDef, gast.GeneratorExp)
_DEFERRED_KINDS = frozenset(DEFERRED)


@dataclasses.dataclass
class Uses:
    shape_reads: list   # names read as a shape argument (see ``shape_argument``)
    other_reads: list   # names read in any other way
    stores: list        # names bound (or deleted)
    deferred: list      # names read inside a nested function, lambda or generator

    @property
    def reads(self):
        return self.shape_reads + self.other_reads


def shape_argument(node):
    """The argument of a call of a runtime helper that reads it only for its shape."""
    func = node.func
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) and \
            func.value.id == "_sg" and func.attr in SHAPE_ARGUMENTS:
        position = SHAPE_ARGUMENTS[func.attr]
        if position < len(node.args) and not any(isinstance(a, gast.Starred)
                                                 for a in node.args):
            return node.args[position]
    return None


def uses_of(node):
    """The ``Uses`` of the tree ``node`` (a statement, its nested blocks included)."""
    shape_reads, other_reads, stores, deferred = [], [], [], []
    templates = set()   # ids of the Name nodes that are shape arguments
    nodes = [node]
    append, extend = nodes.append, nodes.extend
    name_class, constant_class, load = gast.Name, gast.Constant, gast.Load
    call_class, binop_class, attribute_class = gast.Call, gast.BinOp, gast.Attribute
    for current in nodes:   # breadth-first: a call is seen before its arguments
        kind = type(current)
        if kind is name_class:
            if not isinstance(current.ctx, load):
                stores.append(current.id)
            elif id(current) in templates:
                shape_reads.append(current.id)
            else:
                other_reads.append(current.id)
            if current.annotation is not None:
                append(current.annotation)
        elif kind is constant_class:
            continue
        elif kind is binop_class:   # (the common nodes: their children directly)
            append(current.left)
            append(current.right)
        elif kind is attribute_class:
            append(current.value)
        elif kind is call_class:
            if getattr(current.func, "attr", None) in SHAPE_ARGUMENTS:
                argument = shape_argument(current)
                if type(argument) is name_class:
                    templates.add(id(argument))
            append(current.func)
            extend(current.args)
            extend(current.keywords)
        else:
            if kind in _DEFERRED_KINDS:
                deferred.extend(syntax.loaded_names(current))
            _add_children(current, kind, append)
    return Uses(shape_reads, other_reads, stores, deferred)


def _add_children(node, kind, append):
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
    for field in fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, gast.AST):
                    append(item)
        elif isinstance(value, gast.AST):
            append(value)
