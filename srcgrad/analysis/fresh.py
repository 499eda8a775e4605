"""Fresh objects and who may reach them: a flow-sensitive refinement of
``analysis.aliases`` for the names a function writes through.

The alias classes of ``analysis.aliases`` hold for the whole function. A loop that copies
an array, writes its rows and appends it to a list (``s2 = s.copy(); s2[i] = h;
states.append(s2)``) puts ``s2`` in the class of everything the list holds, so every row
write was guarded against the whole list at run time: a walk over every earlier state,
quadratic in the number of iterations. Yet each ``s2`` is a new object when it is written,
held by no other name.

``reachers(body, params, names, facts)`` answers, for each statement and each name of
``names`` written through there: the names that may refer to the object that name is
bound to, to storage it shares (a view) or to a container holding it (transitively),
when that name was bound to a new object (``.copy()``, a list or dict display, an
allocating NumPy call, arithmetic) on every path; the name is absent when it was not, or
when the object may have reached what the analysis cannot see (a call of an unknown
function given it; not one that ``analysis.fresh_results`` proves keeps nothing).
A write through such a name can change only those names.

Per statement, for each tracked name ``n`` with reachers ``R``: ``t = expr`` makes ``t``
a reacher when ``expr`` reads ``n`` or a name of ``R`` in a way that may keep a
reference (``n[i]``, ``[n]``, ``list(n)``, a call of a user function), and not otherwise
(``n * 2``, ``len(n)``, ``np.sum(n)``, ``n.copy()``); ``c[k] = v``,
``c.append(v)``, ``c += v`` with ``v`` reaching ``n`` make ``c`` and every name that may
refer to ``c`` reachers. Joins take the union of the reachers and drop names not tracked
on every path.
"""

from __future__ import annotations

import numpy as np

from srcgrad import syntax
from srcgrad.analysis.aliases import VIEW_FUNCTIONS
from srcgrad.analysis.cfg import CFG
from srcgrad.analysis.dataflow import solve
from srcgrad.syntax import gast

# NumPy calls that return a new array (never an argument, nor a view of one).
_FRESH_NUMPY = frozenset({
    "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like",
    "copy", "arange", "eye", "identity", "linspace", "concatenate", "stack", "vstack",
    "hstack", "column_stack", "tile", "repeat", "outer", "array"})
# NumPy calls that may return their argument (or a view of it) beside VIEW_FUNCTIONS.
_PASS_THROUGH_NUMPY = frozenset({"require", "asarray_chkfinite", "nan_to_num", "asmatrix",
                                 "copyto", "frombuffer", "lib", "ndarray"})
# Builtins whose result holds no reference to what they read (Python checks the type of
# what ``__len__``, ``__float__``, ``__int__``... return).
_SCALAR_BUILTINS = frozenset({"len", "range", "float", "int", "bool", "isinstance",
                              "complex"})
_OPAQUE = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda,
           gast.Global, gast.Nonlocal, gast.Yield, gast.YieldFrom, gast.Await)
_UNREACHED = ()   # the fact of a node no path has reached yet (the solver's top)


def reachers(body, params, names, facts):
    """{id(stmt): {name: frozenset of reachers}} just before each statement, for the
    ``names`` tracked there (see the module docstring); ``facts``: the ``AliasFacts`` of
    ``body`` (for containers that are not tracked). Empty when the function defines
    functions or declares globals (what those reach is not followed)."""
    names = frozenset(names)
    if not names or any(isinstance(node, _OPAQUE) for node in gast.walk(
            gast.Module(body=body, type_ignores=[]))):
        return {}
    cfg = CFG(params, body)

    def transfer(node, fact):
        return fact if fact is _UNREACHED else _transfer(node, fact, names, facts)

    before, _ = solve(cfg, transfer, forward=True, meet=_meet, boundary={}, top=_UNREACHED)
    return {id(node.stmt): fact for node, fact in before.items()
            if node.stmt is not None and fact}


def _meet(facts):
    reached = [fact for fact in facts if fact is not _UNREACHED]
    if not reached:
        return _UNREACHED
    first, rest = reached[0], reached[1:]
    out = {}
    for name, found in first.items():
        if all(name in other for other in rest):
            for other in rest:
                found = found | other[name]
            out[name] = found
    return out


def _transfer(node, fact, names, facts):
    stmt = node.stmt
    if node.kind in ("entry", "exit", "branch", "break") or (
            node.kind == "loop" and isinstance(stmt, gast.While)):
        return fact   # (reading a test keeps no reference)
    if node.kind == "loop":   # for target in iter: an item of iter
        return _bind_names(fact, syntax.names_in(stmt.target, gast.Store),
                           syntax.loaded_names(stmt.iter), names)
    if node.kind != "stmt":
        return {}   # with, except: what they bind is not followed
    if isinstance(stmt, gast.Assign):
        target = stmt.targets[0]
        if isinstance(target, gast.Name):
            if getattr(stmt, "inplace", False):   # x += v: a write into x
                return _store(fact, target.id, _operands(stmt.value, target.id), facts)
            return _bind(fact, target.id, stmt.value, names, facts)
        if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
            return _store(fact, target.value.id, syntax.loaded_names(stmt.value), facts)
        if isinstance(target, (gast.Tuple, gast.List)) and all(
                isinstance(elt, gast.Name) for elt in target.elts):
            return _bind_names(fact, [elt.id for elt in target.elts],
                               syntax.loaded_names(stmt.value), names)
        return {}
    if isinstance(stmt, gast.Expr):
        call = stmt.value
        if _is_method_call(call):
            return _store(fact, call.func.value.id, _call_reads(call), facts)
        return _escape(fact, syntax.loaded_names(stmt.value)) \
            if _kind(call, facts) == "unknown" else fact
    if isinstance(stmt, (gast.Pass, gast.Assert)):
        return fact
    return {}


def _operands(value, target):
    return [n for n in syntax.loaded_names(value) if n != target]


def _call_reads(call):
    return [n for arg in list(call.args) + [kw.value for kw in call.keywords]
            for n in syntax.loaded_names(arg)]


def _is_method_call(call):
    """``c.m(...)`` of a value ``c`` (not of a module or srcgrad's runtime): ``c`` may
    keep what it is given (``lst.append(v)``, and any method of a user's object)."""
    if not (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and isinstance(call.func.value, gast.Name)):
        return False
    return call.func.value.id not in ("np", "math", "_sg")


def _bind(fact, target, value, names, facts):
    """``target = value``."""
    kind = _kind(value, facts)
    reads = syntax.loaded_names(value)
    out = {}
    for name, reach in fact.items():
        if name == target:
            continue
        hit = reach.intersection(reads)
        if kind == "unknown" and (hit or name in reads):
            continue   # given to a function whose effects are not known
        if hit and kind != "scalar" or name in reads and kind == "keeps":
            out[name] = reach | {target}
        else:
            out[name] = reach - {target}
    if target in names and is_fresh(value, facts):
        out[target] = frozenset()
    if _is_method_call(value):   # x = c.setdefault(k, v): c may keep v
        out = _store(out, value.func.value.id, _call_reads(value), facts)
    return out


def _bind_names(fact, targets, reads, names):
    """``a, b = value`` or ``for a in value``: each an item of what ``value`` reads."""
    out = {}
    for name, reach in fact.items():
        if name in targets:
            continue
        reach = reach.difference(targets)
        if name in reads or reach.intersection(reads):
            reach = reach.union(targets)
        out[name] = reach
    return out


def _store(fact, container, reads, facts):
    """``container[k] = v`` (or ``container.append(v)``, ``container += v``): a tracked
    object that ``v`` reaches is now reached by everything that reaches the container."""
    out = dict(fact)
    for name, reach in fact.items():
        if name == container or not (name in reads or reach.intersection(reads)):
            continue
        if container in fact:
            holders = fact[container] | {container}
        else:
            holders = facts.affected_by(container) | {container}
        out[name] = reach | holders
    return out


def _escape(fact, reads):
    return {name: reach for name, reach in fact.items()
            if name not in reads and not reach.intersection(reads)}


def _kind(value, facts):
    """How ``value``'s result may refer to what it reads: "scalar" (never: a number, a
    shape, a new array), "operand" (not to a name read as an operand itself, but maybe
    to what a container read holds: ``a + b``, ``x.copy()``), "keeps" (to anything it
    reads), "unknown" (a call of a function whose effects are not known)."""
    if isinstance(value, (gast.Name, gast.Subscript, gast.List, gast.Tuple, gast.Dict,
                          gast.Set, gast.ListComp, gast.DictComp, gast.SetComp,
                          gast.GeneratorExp, gast.IfExp, gast.BoolOp, gast.Starred)):
        return "keeps"
    if isinstance(value, gast.Constant):
        return "scalar"
    if isinstance(value, (gast.BinOp, gast.UnaryOp, gast.Compare)):
        return "operand"
    if isinstance(value, gast.Attribute):
        return "keeps"
    if not isinstance(value, gast.Call):
        return "keeps"
    func = value.func
    dotted = syntax.dotted_name(func) or ""
    if isinstance(func, gast.Name) and func.id in _SCALAR_BUILTINS:
        return "scalar"
    if dotted.startswith("math."):
        return "scalar"
    if dotted.startswith("np."):
        attr = dotted.rsplit(".", 1)[1]
        if attr in VIEW_FUNCTIONS or attr in _PASS_THROUGH_NUMPY \
                or any(kw.arg in ("copy", "dtype") for kw in value.keywords) \
                or dotted.count(".") > 1 \
                and not dotted.startswith(("np.linalg.", "np.fft.")):
            return "keeps"
        return "scalar"
    if isinstance(func, gast.Attribute) and func.attr == "copy" and not value.args \
            and not value.keywords and isinstance(func.value, gast.Name):
        return "operand"   # a shallow copy of a container holds what it holds
    if isinstance(func, gast.Name) and func.id in ("list", "dict", "tuple", "sorted"):
        return "keeps"   # (list(a) of an array holds views of its rows)
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
            and not dotted.startswith("_sg."):
        return "keeps"   # a method of a value: a view, an item, or the value itself
    if isinstance(func, gast.Name) and facts.returns_fresh(func.id):
        return "scalar"   # new arrays, nothing kept (proven from the callee's source)
    return "unknown"


def is_fresh(value, facts):
    """Is ``value`` surely a new object (never one that exists already)?"""
    if isinstance(value, (gast.List, gast.Dict, gast.ListComp, gast.DictComp)):
        return True
    if isinstance(value, gast.BinOp):
        return True   # arithmetic allocates (list and tuple concatenation too)
    if not isinstance(value, gast.Call):
        return False
    func = value.func
    dotted = syntax.dotted_name(func) or ""
    if dotted.startswith("np.") and dotted.count(".") == 1:
        if isinstance(getattr(np, dotted[3:], None), np.ufunc):   # (as arithmetic)
            return not any(kw.arg in ("out", None) for kw in value.keywords)
        return dotted[3:] in _FRESH_NUMPY and not any(kw.arg == "copy"
                                                       for kw in value.keywords)
    if isinstance(func, gast.Name):
        return func.id in ("list", "dict") or facts.returns_fresh(func.id)
    return isinstance(func, gast.Attribute) and func.attr == "copy" and not value.args \
        and not value.keywords and isinstance(func.value, gast.Name)
