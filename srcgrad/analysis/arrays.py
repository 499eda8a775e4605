"""Which locals are proven NumPy arrays (``ndarray`` or NumPy scalar) by the code itself.

A method call ``v.sum()`` is compiled as ``np.sum(v)`` only when ``v`` is proven an array:
every assignment to ``v`` builds one from a NumPy call, arithmetic on proven arrays, an
index into one or ``.T``. Parameters and values read from objects are never proven
(their method calls are resolved when they run, see ``srcgrad.compiler.dispatch``).

Before (normalized)::

    def f(x, xp):
        _mul = x * x           # x is a parameter: not proven
        _sin = np.sin(x)       # proven
        _sum = _sin.sum()      # -> np.sum(_sin)
        _total = xp.sum(_mul)  # xp is not proven: resolved when it runs

After: ``{"_sin"}`` (and ``_sum``, a reduction of a proven array).
"""

from __future__ import annotations

import numpy as np

from srcgrad import syntax
from srcgrad.syntax import gast

# NumPy functions in the rule table that return tuples or lists, not arrays.
_NOT_ARRAYS = {"split", "array_split", "hsplit", "vsplit", "dsplit", "eigh", "eig", "svd",
               "qr", "slogdet", "broadcast_arrays", "meshgrid", "unique", "nonzero",
               "histogram", "atleast_1d", "atleast_2d", "atleast_3d", "shape", "lstsq",
               "frexp", "modf", "divmod", "where", "indices", "tril_indices",
               "triu_indices", "unravel_index", "gradient"}
_ARRAY_RESULT_METHODS = {"sum", "mean", "prod", "max", "min", "dot", "ravel", "flatten",
                         "copy", "squeeze", "cumsum", "clip", "reshape", "transpose",
                         "swapaxes", "trace", "repeat", "std", "var", "astype"}
_CONSTRUCTORS = {np.zeros, np.ones, np.empty, np.eye, np.identity, np.zeros_like,
                 np.ones_like, np.empty_like, np.full, np.full_like, np.array, np.asarray,
                 np.arange, np.linspace}


def proven_arrays(body, params, call_target, nodes=None):
    """The locals of ``body`` proven arrays; ``call_target(call)`` is the object a call
    with a non-local callee denotes, or None. ``nodes``: every node of ``body``
    (``syntax.walk`` of each statement), when the caller has them already."""
    if nodes is None:
        nodes = [node for stmt in body for node in syntax.walk(stmt)]
    values = {}       # name -> the values assigned to it
    others = set(params)   # names bound some other way (parameters, loop targets, ...)
    simple_targets = set()
    for node in nodes:
        if isinstance(node, gast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], gast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
            simple_targets.add(id(node.targets[0]))
    for node in nodes:
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store) \
                and id(node) not in simple_targets:
            others.add(node.id)
    arrays = set(values) - others
    readers = {}   # name -> the names some value of which reads it
    for name in arrays:
        for value in values[name]:
            for read in syntax.loaded_names(value):
                readers.setdefault(read, set()).add(name)
    pending = sorted(arrays, reverse=True)   # (checked in name order, as before)
    while pending:   # a name found not an array puts the names reading it back to check
        name = pending.pop()
        if name in arrays and not all(_builds_array(v, arrays, call_target)
                                      for v in values[name]):
            arrays.discard(name)
            pending.extend(sorted(readers.get(name, set()) & arrays, reverse=True))
    return frozenset(arrays)


def _builds_array(value, arrays, call_target):
    def is_array(atom):
        return isinstance(atom, gast.Name) and atom.id in arrays

    if isinstance(value, gast.Name):
        return is_array(value)
    if isinstance(value, gast.BinOp):
        operands = (value.left, value.right)
        numeric = [isinstance(a, gast.Constant) and type(a.value) in (int, float)
                   for a in operands]
        return all(is_array(a) or n for a, n in zip(operands, numeric)) and not all(numeric)
    if isinstance(value, gast.UnaryOp):
        return not isinstance(value.op, gast.Not) and is_array(value.operand)
    if isinstance(value, gast.Subscript):
        return is_array(value.value)
    if isinstance(value, gast.Attribute):
        return value.attr == "T" and is_array(value.value)
    if isinstance(value, gast.Call):
        func = value.func
        if isinstance(func, gast.Attribute) and is_array(func.value):
            return func.attr in _ARRAY_RESULT_METHODS
        return _numpy_array_call(call_target(value))
    return False


def _numpy_array_call(obj):
    if obj is None:
        return False
    if isinstance(obj, np.ufunc):
        return obj.nout == 1
    try:
        if obj in _CONSTRUCTORS:
            return True
    except TypeError:
        return False
    from srcgrad.rules import REGISTRY

    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] == "numpy" and REGISTRY.lookup(obj) is not None \
        and getattr(obj, "__name__", "") not in _NOT_ARRAYS
