"""Which names surely hold a scalar (shape ``()``: a Python or NumPy number)?

A forward *must* analysis. Literals, ``len(...)``, ``math`` functions and elementwise
operations on scalars give scalars; with ``scalar_params`` every parameter starts as one
(the variant of a function specialized for scalar arguments).

Used to drop work that only matters for arrays: a cotangent needs no ``unbroadcast``
when every other operand is a scalar, and partials of scalars use ``math``
(``math.cos(h)`` instead of ``np.cos(h)``).

Before (``scalar_params``: w, c)::        Scalars known after each line::

    _mul = h * w       # h = 0.5 before        {w, c, h, _mul}
    _tanh = np.tanh(_mul)                      {w, c, h, _mul, _tanh}
    row = X[0]                                 {... } (X is a global: unknown)
"""

from __future__ import annotations

from srcgrad.analysis.bits import FactMap, NameSet
from srcgrad.analysis.dataflow import intersection, solve
from srcgrad.syntax import gast

SCALAR_ATTRIBUTES = {"ndim", "size", "itemsize", "nbytes"}


def analyze_scalars(cfg, scalar_params, call_gives_scalar):
    """Names surely scalar on entry to each node. ``call_gives_scalar(call, is_scalar)``
    decides for calls (rule rows, ``math``, ``len``)."""
    index = cfg.index
    params = index.bits(scalar_params)
    universe = params
    for node in cfg.nodes:
        universe |= node.def_bits

    def transfer(node, fact):
        if node.kind == "entry":
            return params
        stmt = node.stmt
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            target = node.def_bits
            scalar = is_scalar_expr(stmt.value, NameSet(index, fact), call_gives_scalar)
            return (fact & ~target) | (target if scalar else 0)
        if isinstance(stmt, gast.For) and _is_range(stmt.iter):
            return fact | node.def_bits
        return fact & ~node.def_bits

    before, _ = solve(cfg, transfer, forward=True, meet=intersection, boundary=0,
                      top=universe)
    return FactMap(index, before)


def is_scalar_expr(expr, scalars, call_gives_scalar):
    def atom(node):
        if isinstance(node, gast.Constant):
            return type(node.value) in (int, float, bool)
        return isinstance(node, gast.Name) and node.id in scalars

    if isinstance(expr, (gast.Constant, gast.Name)):
        return atom(expr)
    if isinstance(expr, gast.BinOp):
        return not isinstance(expr.op, gast.MatMult) and atom(expr.left) and atom(expr.right)
    if isinstance(expr, gast.UnaryOp):
        return atom(expr.operand)
    if isinstance(expr, gast.Compare):
        return atom(expr.left) and all(atom(c) for c in expr.comparators)
    if isinstance(expr, gast.Attribute):
        return expr.attr in SCALAR_ATTRIBUTES
    if isinstance(expr, gast.Call):
        return call_gives_scalar(expr, atom)
    return False


def _is_range(expr):
    return isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name) \
        and expr.func.id == "range"
