"""Plain classes whose ``__init__`` only stores its arguments, differentiated like
dataclasses (field by field)::

    class Layer:
        def __init__(self, W, b):
            self.W = W
            self.b = b

``Layer(W, b)`` then builds a structure with fields ``("W", "b")``: its tangent is a
``Layer`` of the tangents, its cotangent a ``Layer`` (or a dict) of the cotangents, and
its methods are compiled when called, reading the fields. Proven from the source of
``__init__`` (which must be the code that runs): positional parameters only, a body of
``self.p = p`` statements storing each parameter once under its own name (a docstring
allowed), and no ``__new__``, ``__slots__``, ``__setattr__``, ``__getattribute__`` or
metaclass of the class's own that could change what construction or attribute access
does. Any other class is not a structure (constructing one from values being
differentiated stays refused)."""

from __future__ import annotations

import inspect
import textwrap
import weakref

from srcgrad.frontend.freshness import compiles_to
from srcgrad.syntax import gast

_KNOWN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # class -> fields | None


def plain_init_fields(cls):
    """The fields of ``cls`` (its ``__init__``'s parameters, in order) when ``cls`` is a
    plain class whose ``__init__`` only stores its arguments, else None."""
    try:
        known = _KNOWN.get(cls, False)
    except TypeError:
        return None
    init = cls.__dict__.get("__init__") if isinstance(cls, type) else None
    if known is not False and (known is None or known[1] is getattr(init, "__code__", None)):
        return None if known is None else known[0]
    fields = _fields(cls, init)
    try:
        _KNOWN[cls] = None if fields is None else (fields, init.__code__)
    except TypeError:
        pass
    return fields


def _fields(cls, init):
    if type(cls) is not type or not inspect.isfunction(init) or cls.__mro__[1:] != (object,):
        return None
    if any(name in cls.__dict__ for name in ("__new__", "__slots__", "__setattr__",
                                             "__getattribute__", "__getattr__",
                                             "__init_subclass__")):
        return None
    code = init.__code__
    if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or code.co_kwonlyargcount \
            or code.co_posonlyargcount or not compiles_to(init):
        return None
    try:
        tree = gast.parse(textwrap.dedent(inspect.getsource(init)))
    except (OSError, TypeError, SyntaxError):
        return None
    fn = tree.body[0] if tree.body else None
    if not isinstance(fn, gast.FunctionDef) or fn.decorator_list:
        return None
    params = [a.id for a in fn.args.args]
    if len(params) < 2 or not all(_literal(d) for d in fn.args.defaults):
        return None
    return _stored(fn.body, params[0], params[1:])


def _literal(node):
    """A constant default, signed numbers included (``c=-0.7``)."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        node = node.operand
    return isinstance(node, gast.Constant)


def _stored(body, self_name, params):
    """``tuple(params)`` when ``body`` is ``self.p = p`` for each parameter, once."""
    if body and isinstance(body[0], gast.Expr) and isinstance(body[0].value, gast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    stored = []
    for stmt in body:
        if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1):
            return None
        target, value = stmt.targets[0], stmt.value
        if not (isinstance(target, gast.Attribute) and isinstance(target.value, gast.Name)
                and target.value.id == self_name and isinstance(value, gast.Name)
                and value.id == target.attr and value.id in params):
            return None
        stored.append(value.id)
    return tuple(params) if sorted(stored) == sorted(params) else None
