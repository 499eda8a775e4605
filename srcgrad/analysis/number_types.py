"""Which Python types can a name hold: ``int``, ``float``, NumPy's ``float64``?

A flow-insensitive *may* analysis over generated code of the variant specialized for
scalar arguments (whose parameters are each an ``int``, a ``float`` or a ``float64``:
``_sg.all_scalars`` checks that exactly). A name's types are the union of the types of
every value assigned to it anywhere, to a fixpoint. What cannot be told is ``OTHER``
(a bool, a complex, a ``float32``, a list...); ``NONE`` is the ``None`` a name starts as
before a loop assigns it.

Used by ``optimize.float_sweep`` to know which values the backward sweep may compute
with as Python floats and what NumPy would have computed instead.

Before (the parameters ``x, y``)::          Types::

    a = x * y                                a: int, float, float64
    s = np.sin(a)                            s: float64
    h = 0.5                                  h: float, float64
    for i in range(3):                       i: int
        h = h * s                            (h * s: float64)
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.syntax import gast

INT, FLOAT, FLOAT64, NONE, OTHER = "int", "float", "float64", "none", "other"
_ALL_TAGS = (INT, FLOAT, FLOAT64, NONE, OTHER)
SCALAR_PARAMETER = frozenset({INT, FLOAT, FLOAT64})   # what ``_sg.all_scalars`` admits
NUMBERS = frozenset({INT, FLOAT, FLOAT64})

# NumPy functions whose result is a float64 for any int, float or float64 arguments.
FLOAT_UFUNCS = frozenset({
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
    "cbrt", "deg2rad", "rad2deg", "radians", "degrees", "fabs", "arctan2", "hypot",
    "logaddexp", "logaddexp2", "true_divide", "divide", "float_power"})
# NumPy functions whose result keeps its arguments' kind: a float64 when one of them is
# a float or a float64, an integer NumPy scalar (``OTHER``) when all are ints.
SAME_KIND_UFUNCS = frozenset({
    "absolute", "abs", "square", "negative", "positive", "maximum", "minimum", "fmax",
    "fmin", "add", "subtract", "multiply"})
# ``math`` functions returning a float for any int, float or float64 arguments.
MATH_FLOATS = frozenset({
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh",
    "acosh", "atanh", "exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "hypot",
    "fabs", "pow", "erf", "erfc", "gamma", "lgamma"})

_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.FloorDiv, gast.Mod)


def name_types(body, params):
    """``{name: frozenset of types}`` for every name ``body`` binds and every parameter
    (each parameter: an int, a float or a float64)."""
    sites, unknown = _binding_sites(body)
    types = {p: SCALAR_PARAMETER for p in params}
    for name in unknown:
        types[name] = frozenset({OTHER})
    # each round that goes on adds a type to a name's set (sets only grow, over the finite
    # set of type tags): at most names x tags rounds, plus one
    bound = (len(sites) + len(types) + 1) * (len(_ALL_TAGS) + 1) + 1
    for _ in fixpoint.rounds(bound, "the number types of names"):
        changed = False
        for name, value in sites:
            found = types.get(name, frozenset()) | value_types(value, types)
            if found != types.get(name):
                types[name] = found
                changed = True
        if not changed:
            break
    return types


def value_types(node, types):
    """The types the expression ``node`` may evaluate to, given the names' ``types``
    (a name not in ``types`` is ``OTHER``: a global, a closure cell)."""
    if isinstance(node, _Range):
        return frozenset({INT})
    if isinstance(node, gast.Constant):
        return _constant_type(node.value)
    if isinstance(node, gast.Name):
        return types.get(node.id, frozenset({OTHER}))
    if isinstance(node, gast.BinOp):
        return _binary(node.op, value_types(node.left, types), value_types(node.right, types))
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        return value_types(node.operand, types)
    if isinstance(node, gast.IfExp):
        return value_types(node.body, types) | value_types(node.orelse, types)
    if isinstance(node, gast.Call) and not node.keywords:
        return _call_types(node, [value_types(a, types) for a in node.args])
    return frozenset({OTHER})


def _constant_type(value):
    kind = type(value)
    if kind is int:
        return frozenset({INT})
    if kind is float:
        return frozenset({FLOAT})
    return frozenset({NONE}) if value is None else frozenset({OTHER})


def _binary(op, left, right):
    if isinstance(op, gast.Pow):
        return _union(_power(a, b) for a in left for b in right)
    if not isinstance(op, _ARITHMETIC):
        return frozenset({OTHER})
    divides = isinstance(op, gast.Div)
    return _union(_arithmetic(a, b, divides) for a in left for b in right)


def _arithmetic(a, b, divides):
    if NONE in (a, b):
        return frozenset()   # a TypeError: no value
    if OTHER in (a, b):
        return frozenset({OTHER})
    if FLOAT64 in (a, b):   # NumPy's operator answers (float64 subclasses float)
        return frozenset({FLOAT64})
    if FLOAT in (a, b) or divides:
        return frozenset({FLOAT})
    return frozenset({INT})


def _power(a, b):
    if NONE in (a, b):
        return frozenset()
    if OTHER in (a, b):
        return frozenset({OTHER})
    if FLOAT64 in (a, b):
        return frozenset({FLOAT64})
    if b == INT:   # a negative int exponent gives a float
        return frozenset({INT, FLOAT}) if a == INT else frozenset({FLOAT})
    return frozenset({FLOAT, OTHER})   # a negative base: a complex


def _call_types(call, args):
    name = syntax.dotted_name(call.func) or ""
    module, _, function = name.rpartition(".")
    if any(a - NUMBERS - {NONE} for a in args) or not args:
        return frozenset({OTHER})
    if module == "np" and function in FLOAT_UFUNCS:
        return frozenset({FLOAT64})
    if module == "np" and function in SAME_KIND_UFUNCS:
        floats = any(a & {FLOAT, FLOAT64} for a in args)
        ints = all(INT in a for a in args)
        return frozenset(([FLOAT64] if floats else []) + ([OTHER] if ints else []))
    if module == "math" and function in MATH_FLOATS:
        return frozenset({FLOAT})
    if name == "_sg.shape_of" and len(args) == 1:   # a scalar's "shape" is itself
        return args[0]
    return frozenset({OTHER})


def _union(sets):
    found = frozenset()
    for s in sets:
        found |= s
    return found


class _Range(gast.AST):
    """Stands for the value a ``for`` over ``range(...)`` binds: an int."""

    _fields = ()


def _binding_sites(body):
    """``([(name, value expression), ...], names bound in ways not described)``."""
    sites, described = [], set()
    for stmt in syntax.statements(body):
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name):
            sites.append((stmt.targets[0].id, stmt.value))
            described.add(id(stmt.targets[0]))
        elif isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
            sites.append((stmt.target.id, gast.BinOp(left=syntax.name(stmt.target.id),
                                                     op=stmt.op, right=stmt.value)))
            described.add(id(stmt.target))
        elif isinstance(stmt, gast.For) and isinstance(stmt.target, gast.Name) \
                and _is_range(stmt.iter):
            sites.append((stmt.target.id, _Range()))
            described.add(id(stmt.target))
    unknown = {node.id for stmt in body for node in syntax.walk(stmt)
               if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store)
               and id(node) not in described}
    return sites, unknown


def _is_range(node):
    return isinstance(node, gast.Call) and syntax.dotted_name(node.func) == "range"
