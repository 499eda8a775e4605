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

from srcgrad.analysis.cfg import value_reads
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


def proven_arrays(assigned, params, call_target):
    """The locals proven arrays, given the body's ``assigned`` (``SimpleAssignments``);
    ``call_target(call)`` is the object a call with a non-local callee denotes, or None."""
    candidates = set(assigned.values) - assigned.bound_otherwise - set(params)
    return greatest_subset(candidates, assigned, lambda value, arrays: _builds_array(
        value, arrays, call_target))


class SimpleAssignments:
    """The ``name = value`` assignments of a body, gathered once for the analyses here:

    - ``values``: name -> the values assigned to it by ``name = value``, in order;
    - ``bound_otherwise``: the names bound some other way (loop and unpacking targets...);
    - ``readers``: name -> the names some value of which reads it.

    ``groups``: the body's nodes by class (``syntax.by_type`` of every statement's walk).
    """

    def __init__(self, groups):
        self.values = values = {}
        self.readers = readers = {}
        simple_targets = set()
        for node in groups.get(gast.Assign, ()):
            target = node.targets[0]
            if len(node.targets) == 1 and type(target) is gast.Name:
                values.setdefault(target.id, []).append(node.value)
                simple_targets.add(id(target))
                for read in value_reads(node.value):
                    readers.setdefault(read, set()).add(target.id)
        self.bound_otherwise = {
            node.id for node in groups.get(gast.Name, ())
            if type(node.ctx) is gast.Store and id(node) not in simple_targets}


def greatest_subset(candidates, assigned, builds):
    """The largest subset of ``candidates`` whose every assigned value ``builds`` a
    member given the subset (sound by induction over the assignments that run). A name
    found not to be one puts the names whose values read it back to check."""
    found = set(candidates)
    values, readers = assigned.values, assigned.readers
    pending = sorted(found, reverse=True)   # (checked in name order)
    while pending:
        name = pending.pop()
        if name not in found:
            continue
        for value in values[name]:   # (a loop, not ``all`` of a generator: one per name)
            if not builds(value, found):
                found.discard(name)
                pending.extend(sorted(readers.get(name, set()) & found, reverse=True))
                break
    return frozenset(found)


def proven_numbers(assigned, numbers, arrays, call_target):
    """The locals proven to hold a number or an array, never a list, tuple or dict, given
    the body's ``assigned`` (``SimpleAssignments``), ``numbers`` (names known to:
    parameters checked to be scalars) and ``arrays`` (proven NumPy arrays). Their
    cotangents are added with ``+``; any other local's item by item when it runs
    (``_sg.add_cotangents``).

    ``a - b``, ``a / b``, ``a ** b``, ``a @ b``, ``-a`` raise on a list; ``a + b`` is
    concatenation unless one side is a number; ``lst * n`` repeats a list for a Python
    int ``n``, so ``*`` needs numbers on both sides or, on one side, a value that is
    never a Python int (a float literal, an array, a product with one, a quotient).
    """
    arrays = set(arrays)
    known = set(numbers) | arrays
    candidates = set(assigned.values) - assigned.bound_otherwise - known
    inexact = arrays | greatest_subset(candidates, assigned, lambda value, found: (
        _builds_number(value, _Either(found, known), _Either(found, arrays), call_target,
                       want_inexact=True)))
    return known | greatest_subset(candidates, assigned, lambda value, found: (
        _builds_number(value, _Either(found, known), inexact, call_target)))


class _Either:
    """Membership in either of two sets, without copying them (``found`` shrinks while
    ``greatest_subset`` runs: a union built per value checked made it quadratic)."""

    __slots__ = ("first", "second")

    def __init__(self, first, second):
        self.first, self.second = first, second

    def __contains__(self, name):
        return name in self.first or name in self.second


_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.FloorDiv, gast.Mod, gast.Pow,
               gast.MatMult)
_RAISING_ON_SEQUENCES = (gast.Sub, gast.Div, gast.FloorDiv, gast.Pow, gast.MatMult)


def _builds_number(value, numbers, inexact, call_target, want_inexact=False):
    """Does ``value`` build a number given the names of ``numbers`` (and, of them, the
    ``inexact`` ones: never a Python int)? With ``inexact``: a number that is never a
    Python int or bool."""
    def among(atom, names, kinds):
        return (isinstance(atom, gast.Name) and atom.id in names) or (
            isinstance(atom, gast.Constant) and type(atom.value) in kinds)

    def number(atom):
        return among(atom, numbers, (int, float, complex))

    def never_int(atom):
        return among(atom, inexact, (float, complex))

    if isinstance(value, gast.Constant):
        return type(value.value) in ((float, complex) if want_inexact
                                     else (int, float, complex, bool))
    if isinstance(value, gast.Name):
        return value.id in (inexact if want_inexact else numbers)
    if isinstance(value, gast.IfExp):
        return all(_builds_number(v, numbers, inexact, call_target, want_inexact)
                   for v in (value.body, value.orelse))
    if isinstance(value, gast.Call):
        return _number_call(call_target(value), want_inexact)
    if want_inexact:   # an arithmetic result with a float or an array in it
        return isinstance(value, gast.BinOp) and isinstance(value.op, _ARITHMETIC) and (
            isinstance(value.op, gast.Div) or any(never_int(side) for side in (
                value.left, value.right))) and _builds_number(
            value, numbers, inexact, call_target)
    if isinstance(value, gast.UnaryOp):
        return not isinstance(value.op, gast.Not)
    if isinstance(value, gast.BinOp):
        sides = (value.left, value.right)
        if isinstance(value.op, _RAISING_ON_SEQUENCES):
            return True
        if isinstance(value.op, gast.Add):
            return any(number(side) for side in sides)
        if isinstance(value.op, gast.Mult):   # x * x raises on a list
            return all(number(side) for side in sides) or any(map(never_int, sides)) or (
                all(isinstance(side, gast.Name) for side in sides)
                and value.left.id == value.right.id)
    return False


def _number_call(obj, want_inexact=False):
    """Does calling ``obj`` surely give a number or an array (a NumPy function of the
    rule table, one of ``math``'s, ``len``, ``float``, ``int``, ``abs``, ``round``)?
    With ``want_inexact``: never a Python int (NumPy's, ``float``, ``math``'s that give
    floats)."""
    if obj is None:
        return False
    if want_inexact:
        return obj is float or _numpy_array_call(obj) or (
            getattr(obj, "__module__", None) == "math"
            and getattr(obj, "__name__", "") in _MATH_FLOATS)
    if any(obj is known for known in (len, float, int, abs, round)):
        return True
    if getattr(obj, "__module__", None) == "math":
        return getattr(obj, "__name__", "") not in ("frexp", "modf")
    return _numpy_array_call(obj)


_MATH_FLOATS = {"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
                "asinh", "acosh", "atanh", "exp", "expm1", "log", "log1p", "log2", "log10",
                "sqrt", "pow", "hypot", "erf", "erfc", "gamma", "lgamma", "fabs", "fmod",
                "copysign", "degrees", "radians", "fsum", "dist", "cbrt", "exp2"}


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
