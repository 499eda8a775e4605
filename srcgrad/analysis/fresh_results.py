"""Callees whose results are new arrays: a fact proven from a called function's own
source, for the alias analyses of its callers (``analysis.aliases``, ``analysis.fresh``).

A function the caller does not inline (one from another module, compiled as a unit of its
own) was read as returning, maybe, its arguments or views of them, and keeping them. A
loop that writes rows of a new copy and gives a row to such a call (ADBench's LSTM:
``s2[i], s2[i + 1] = cell(w[i], w[i + 1], s[i], s[i + 1], x); x = s2[i]``) then guarded
every row write against every state in a growing list: quadratic. ``returns_fresh(fn)``
proves, from ``fn``'s source, that

- every value it returns is a new NumPy array or number (arithmetic with a NumPy array or
  a NumPy call as an operand, an allocating NumPy call, a float literal, a negation), or
  a tuple or list display of such values: none is an argument, a global, or a view of one;
- it keeps no reference to what it is given: it writes through no name (no item or
  attribute store, no augmented assignment, no mutating method), declares no global, and
  gives another function (a user function, a builtin) only numbers and arrays it made
  itself (or views of them); NumPy functions keep nothing.

The caller's code is guarded on ``fn`` and its ``__code__`` (``ParsedFunction.assume``),
so the fact holds while the name denotes that function. Anything else is not proven:
the statements allowed are assignments to names, ``return``, ``if``, ``for``, ``while``,
``pass`` and a docstring.

Before: ``def cell(w, h): g = np.concatenate((h, h)) * w; return np.tanh(g), g * 2.0``
After:  ``returns_fresh(cell)`` is True; ``def ident(h): return h`` is False.
"""

from __future__ import annotations

import types

import numpy as np

from srcgrad import syntax
from srcgrad.analysis.aliases import MUTATING_METHODS, VIEW_FUNCTIONS
from srcgrad.syntax import gast

_ARRAY = "array"    # a new NumPy array or number, holding no reference
_FRESH = "fresh"    # a new tuple or list holding only such values
_GIVEN = "given"    # a new array given to another function since (which may keep it)
_MEETS = {frozenset({_ARRAY, _GIVEN}): _GIVEN, frozenset({_ARRAY, _FRESH}): _FRESH}
_ARITHMETIC_METHODS = frozenset({"copy", "astype", "sum", "mean", "prod", "dot", "std",
                                 "var", "cumsum", "cumprod", "conj", "round", "clip"})
_MAX_LOOP_ROUNDS = 64   # a loop's must-facts shrink each round: bounded by the names
_cache: dict = {}


def returns_fresh(fn):
    """Is ``fn`` proven (see the module docstring) to return only new arrays and keep
    nothing it is given? Cached per code object."""
    if not isinstance(fn, types.FunctionType) or fn.__closure__ or fn.__kwdefaults__:
        return False
    key = fn.__code__
    if key not in _cache:
        _cache[key] = _prove(fn)
    return _cache[key]


def _prove(fn):
    from srcgrad.frontend.parse import parse_function
    if fn.__globals__.get("np") is not np:
        return False
    try:
        node = parse_function(fn).node
    except Exception:   # no source, a lambda on a shared line...: not proven
        return False
    if node.decorator_list or node.args.vararg or node.args.kwarg:
        return False
    try:
        _block(node.body, {})
    except _NotProven:
        return False
    return True


class _NotProven(Exception):
    pass


def _block(body, state):
    """The names bound to new objects after ``body`` (``name -> _ARRAY or _FRESH``, a
    must-fact), checking each statement; raises ``_NotProven``."""
    for stmt in body:
        state = _statement(stmt, state)
    return state


def _statement(stmt, state):
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1:
        return _assign(stmt.targets[0], stmt.value, state)
    if isinstance(stmt, gast.Return):
        if stmt.value is None:
            raise _NotProven
        _check_reads(stmt.value, state)
        if _kind(stmt.value, _uncaptured(stmt.value, state)) is None:
            raise _NotProven
        return state
    if isinstance(stmt, gast.If):
        _check_reads(stmt.test, state)
        return _meet(_block(stmt.body, dict(state)), _block(stmt.orelse, dict(state)))
    if isinstance(stmt, (gast.For, gast.While)):
        return _loop(stmt, state)
    if isinstance(stmt, gast.Pass):
        return state
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant):
        return state   # a docstring
    raise _NotProven


def _loop(stmt, state):
    if stmt.orelse:
        raise _NotProven
    if isinstance(stmt, gast.For):
        _check_reads(stmt.iter, state)
        targets = syntax.names_in(stmt.target, gast.Store)
        if not isinstance(stmt.target, (gast.Name, gast.Tuple)):
            raise _NotProven
    else:
        _check_reads(stmt.test, state)
        targets = []
    for _ in range(_MAX_LOOP_ROUNDS):
        entry = {k: v for k, v in state.items() if k not in targets}
        after = _meet(state, _block(stmt.body, dict(entry)))
        if after == state:
            return after
        state = after
    raise _NotProven


def _meet(a, b):
    out = {}
    for name, kind in a.items():
        found = kind if kind == b.get(name) else _MEETS.get(frozenset({kind, b.get(name)}))
        if found is not None:
            out[name] = found
    return out


def _assign(target, value, state):
    _check_reads(value, state)
    out = _uncaptured(value, state)
    kind = _kind(value, out)
    if isinstance(target, gast.Name):
        if kind is None:
            out.pop(target.id, None)
        else:
            out[target.id] = kind
        return out
    if isinstance(target, gast.Tuple) and all(isinstance(e, gast.Name)
                                             for e in target.elts):
        items = value.elts if isinstance(value, (gast.Tuple, gast.List)) \
            and len(value.elts) == len(target.elts) else None
        for i, elt in enumerate(target.elts):
            found = _kind(items[i], out) if items is not None else None
            if found is None:
                out.pop(elt.id, None)
            else:
                out[elt.id] = found
        return out
    raise _NotProven   # an item or attribute store: a write


def _kind(expr, state):
    """``_ARRAY``/``_FRESH`` when ``expr`` surely makes a new object holding no
    reference to what exists already, else None; raises ``_NotProven`` when evaluating
    it may make something keep a reference to what it is given."""
    if isinstance(expr, gast.Constant):
        return _ARRAY if isinstance(expr.value, (float, complex)) else None
    if isinstance(expr, gast.Name):
        found = state.get(expr.id)
        return found if found in (_ARRAY, _FRESH) else None
    if isinstance(expr, gast.UnaryOp) and isinstance(expr.op, (gast.USub, gast.UAdd)):
        return _ARRAY
    if isinstance(expr, gast.BinOp):
        if not isinstance(expr.op, (gast.Add, gast.Mult)):
            return _ARRAY   # (lists and tuples define no other operator)
        kinds = (_array_kind(expr.left, state), _array_kind(expr.right, state))
        return _ARRAY if _ARRAY in kinds else None   # a NumPy operand: a new array
    if isinstance(expr, (gast.Tuple, gast.List)):
        kinds = [_kind(elt, state) for elt in expr.elts]
        return _FRESH if None not in kinds else None
    if isinstance(expr, gast.Call):
        return _array_kind(expr, state)
    return None


def _array_kind(expr, state):
    """``_ARRAY`` when ``expr`` is surely a new NumPy array or NumPy number."""
    if isinstance(expr, gast.Name):   # (a new array given away: still an array)
        return _ARRAY if state.get(expr.id) in (_ARRAY, _GIVEN) else None
    if isinstance(expr, gast.Call):
        dotted = syntax.dotted_name(expr.func) or ""
        if dotted.startswith("np.") and dotted.count(".") == 1 \
                and dotted[3:] not in VIEW_FUNCTIONS \
                and not any(kw.arg in ("out", "copy") for kw in expr.keywords):
            return _ARRAY
        func = expr.func
        if isinstance(func, gast.Attribute) and func.attr in _ARITHMETIC_METHODS \
                and _array_kind(func.value, state) == _ARRAY:
            return _ARRAY
        return None
    if isinstance(expr, (gast.BinOp, gast.UnaryOp, gast.Constant)):
        return _kind(expr, state) if _kind(expr, state) == _ARRAY else None
    return None


def _check_reads(expr, state):
    """Refuse what may keep a reference: a lambda, a comprehension, a call of a
    mutating method, or a call of a function other than NumPy's given something the
    callee did not make itself."""
    for node in gast.walk(expr):
        if isinstance(node, (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp,
                             gast.GeneratorExp, gast.NamedExpr, gast.Yield,
                             gast.YieldFrom, gast.Await, gast.Starred)):
            raise _NotProven
        if not isinstance(node, gast.Call):
            continue
        func = node.func
        dotted = syntax.dotted_name(func) or ""
        if dotted.startswith("np.") and dotted.count(".") == 1 \
                and not any(kw.arg == "out" for kw in node.keywords):
            continue   # NumPy keeps nothing it is given (writes only through out=)
        if isinstance(func, gast.Attribute) and not dotted.startswith("np."):
            if func.attr in MUTATING_METHODS or func.attr not in (
                    _ARITHMETIC_METHODS | VIEW_FUNCTIONS):
                raise _NotProven
            continue
        if not isinstance(func, gast.Name):
            raise _NotProven
        for arg in list(node.args) + [kw.value for kw in node.keywords]:
            if not _made_here(arg, state):
                raise _NotProven


def _uncaptured(expr, state):
    """``state`` with the names ``expr`` gives a function other than NumPy's (which
    may keep a reference to what it is given) no longer the callee's alone."""
    given = set()
    for node in gast.walk(expr):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
            for arg in list(node.args) + [kw.value for kw in node.keywords]:
                given.update(syntax.loaded_names(arg))
    return {name: _GIVEN if name in given else kind for name, kind in state.items()
            if name not in given or kind != _FRESH}


def _made_here(expr, state):
    """Is ``expr`` a number or an array the callee made (or an item or view of one)?"""
    if isinstance(expr, gast.Constant):
        return True
    if isinstance(expr, gast.Subscript):
        return _array_kind(expr.value, state) == _ARRAY
    return _array_kind(expr, state) == _ARRAY
