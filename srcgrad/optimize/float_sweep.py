"""The backward sweep of the variant specialized for scalars, on Python floats.

NumPy's float64 scalars take 35-40 ns an operation, Python floats about 14. Where the
result is a float64, every cotangent is a float64 in NumPy's sweep; this pass rewrites
the sweep to compute the same numbers on Python floats:

- the float64 values it reads (``number_types``: surely a float or a float64) are read
  as Python floats (``_sg.to_float``), as the seed is (``1.0``);
- ``+``, ``-``, ``*`` and negation give the same double on either type; a ``/`` or a
  ``**`` where one operand is a float64 in NumPy's sweep goes through ``_sg.divide`` /
  ``_sg.power`` (inf or nan where Python raises); one between values whose type is left
  as it was (a parameter, ``a * b`` of them) stays as written, and a value whose type
  would decide it is left a float64;
- the gradients are returned as the float64s NumPy's sweep returns (``_sg.float64``).

Anything else in the sweep (a helper, a call of user code, a complex value...) leaves
it as it was: the pass applies to the whole sweep or not at all.

Before::                                 After::

    dh = _sg.seed(h)                         dh = 1.0
                                             _tanh = _sg.to_float(_tanh)
    d_add = dh * (1 - _tanh * _tanh)         d_add = dh * (1 - _tanh * _tanh)
    dc = d_add / w                           dc = _sg.divide(d_add, w)
    return dc                                return _sg.float64(dc)
"""

from __future__ import annotations

import dataclasses

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.analysis import number_types as types_of
from srcgrad.analysis.number_types import FLOAT, FLOAT64, INT, NONE, NUMBERS, OTHER
from srcgrad.syntax import gast

_ONLY64 = frozenset({FLOAT64})
_UNKNOWN = frozenset({OTHER})
_RANGE = gast.Constant(value=0, kind=None)   # what a ``for`` over a range binds: an int
_ZERO_OR_64 = frozenset({FLOAT, FLOAT64})
_EXACT_OPS = (gast.Add, gast.Sub, gast.Mult)   # the same double on a float or a float64
_HELPERS = {gast.Div: "_sg.divide", gast.Pow: "_sg.power"}


class _Refused(Exception):
    """The sweep has something the pass does not describe."""


class _Sensitive(Exception):
    """A converted value reaches an operation its type would decide: not converted."""

    def __init__(self, names):
        super().__init__(names)
        self.names = names


@dataclasses.dataclass
class FloatSweep:
    conversions: list   # ``x = _sg.to_float(x)`` for the values read as floats
    backward: list      # the sweep, rewritten
    grads: object       # the returned gradients, as float64s where NumPy's were


def float_sweep(forward, backward, grads, seed, params, stack, defined):
    """The backward sweep on Python floats, or None where it does not apply. ``seed``:
    the name of the result's cotangent; ``stack``: the name of the saves' stack;
    ``defined``: the names surely bound when the forward sweep ends."""
    types = types_of.name_types(forward, params)
    read = set(syntax.loaded_names(gast.Module(body=backward, type_ignores=[])))
    read |= set(syntax.loaded_names(grads))
    converted = {n for n in read if n in types and n not in params
                 and types[n] and types[n] <= _ZERO_OR_64}
    # each round that goes on takes a name out of ``converted``
    for _ in fixpoint.rounds(len(converted) + 1, "the float sweep's conversions"):
        try:
            sweep = _Rewriter(types, converted, seed, stack).run(backward, grads)
        except _Sensitive as found:
            if not found.names & converted:
                return None   # nothing left to take back: the sweep stays on NumPy
            converted -= found.names
            continue
        except _Refused:
            return None
        sweep.conversions = _conversions(sorted(converted & defined))
        return sweep


def _conversions(names):
    """``a = _sg.to_float(a)`` for each name (the builtin ``float``: a rule row)."""
    return [syntax.assign(name, syntax.call("_sg.to_float", [syntax.name(name)]))
            for name in names]


class _Rewriter:
    def __init__(self, forward_types, converted, seed, stack):
        self.forward = forward_types
        self.converted = converted
        self.seed, self.stack = seed, stack
        self.types = dict(forward_types)   # today's types: forward names, then the sweep's
        self.changed = set(converted)      # names whose float may stand for a float64
        self.zero_sites = {}               # name -> does each assignment give 0 or a float64

    def run(self, backward, grads):
        self._infer(backward)
        body = self._block(backward)
        seed = syntax.assign(self.seed, syntax.const(1.0))
        return FloatSweep([], [seed] + body, self._returned(grads))

    # -- what each name of the sweep holds ----------------------------------------------
    def _infer(self, backward):
        """Today's types of the names the sweep assigns, and which may have changed."""
        sites = list(self._sites(backward))
        for name, _ in sites:
            self.types.setdefault(name, frozenset())
        self.types[self.seed] = _ONLY64
        self.changed.add(self.seed)
        # each round that goes on adds a type to a name's set or a name to ``changed``
        # (both only grow: at most five type tags and one flag per assigned name)
        progress = True
        for _ in fixpoint.rounds((len(sites) + 1) * 8, "the float sweep's types"):
            if not progress:
                break
            progress = False
            for name, value in sites:
                found, changed = self._value(value)
                types = self.types.get(name, frozenset()) | found
                if types != self.types.get(name) or (changed and name not in self.changed):
                    self.types[name] = types
                    self.changed |= {name} if changed else set()
                    progress = True
        for name, value in sites:
            zero = _is_call(value, "_sg.zeros_like")
            fits = zero or self._value(value)[0] == _ONLY64
            self.zero_sites[name] = self.zero_sites.get(name, True) and fits

    def _sites(self, body):
        for stmt in body:
            if isinstance(stmt, gast.Assign):
                target = stmt.targets[0]
                if len(stmt.targets) != 1 or not isinstance(target, gast.Name):
                    raise _Refused
                if target.id in self.forward:
                    if not self._is_pop(stmt.value):   # only restores rebind them
                        raise _Refused
                    continue
                yield target.id, stmt.value
            elif isinstance(stmt, gast.AugAssign):
                if not isinstance(stmt.target, gast.Name) or stmt.target.id in self.forward:
                    raise _Refused
                yield stmt.target.id, gast.BinOp(left=syntax.name(stmt.target.id),
                                                 op=stmt.op, right=stmt.value)
            elif isinstance(stmt, (gast.For, gast.If)):
                if isinstance(stmt, gast.For):
                    if not (isinstance(stmt.target, gast.Name) and _is_range(stmt.iter)):
                        raise _Refused
                    yield stmt.target.id, _RANGE
                yield from self._sites(stmt.body)
                yield from self._sites(stmt.orelse)

    def _value(self, node):
        """(today's types, may the float stand for a float64) of an expression."""
        if node is _RANGE:
            return frozenset({INT}), False
        if _is_call(node, "_sg.zeros_like"):
            if len(node.args) != 1 or not self._number(node.args[0]):
                raise _Refused
            zero = frozenset({FLOAT}) | (self._types(node.args[0]) & _ONLY64)
            return zero, False
        if isinstance(node, gast.Name):
            return self._types(node), node.id in self.changed
        if isinstance(node, gast.Constant):
            if type(node.value) not in (int, float):
                raise _Refused
            return types_of.value_types(node, {}), False
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
            return self._value(node.operand)
        if isinstance(node, gast.BinOp):
            (left, l_changed), (right, r_changed) = map(self._value, (node.left, node.right))
            if not (left | right) <= NUMBERS | {NONE}:
                raise _Refused
            return types_of.value_types(node, self.types), l_changed or r_changed
        if isinstance(node, gast.Call) and _library_call(node):
            for arg in node.args:
                if not self._value(arg)[0] <= NUMBERS | {NONE}:
                    raise _Refused
            return types_of.value_types(node, self.types), False
        raise _Refused

    def _types(self, name_node):
        return self.types.get(name_node.id, _UNKNOWN)   # (a global: anything)

    def _number(self, node):
        return isinstance(node, gast.Name) and self._types(node) <= NUMBERS

    # -- the rewritten sweep -------------------------------------------------------------
    def _block(self, body):
        return [self._statement(stmt) for stmt in body]

    def _statement(self, stmt):
        if syntax.is_comment(stmt) or isinstance(stmt, gast.Pass):
            return stmt
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0].id
            if self._is_pop(stmt.value):
                if target in self.converted:
                    return _with(stmt, value=syntax.call("_sg.to_float", [stmt.value]))
                return stmt
            return _with(stmt, value=self._expr(stmt.value))
        if isinstance(stmt, gast.AugAssign):
            whole = self._expr(gast.BinOp(left=syntax.name(stmt.target.id), op=stmt.op,
                                          right=stmt.value))
            if isinstance(whole, gast.BinOp):
                return _with(stmt, value=whole.right)
            return syntax.assign(stmt.target.id, whole)   # ``a /= b``: a helper's call
        if isinstance(stmt, gast.For):
            self._unchanged(stmt.iter)
            if stmt.orelse:
                raise _Refused
            return _with(stmt, body=self._block(stmt.body))
        if isinstance(stmt, gast.If):
            self._unchanged(stmt.test)
            return _with(stmt, body=self._block(stmt.body), orelse=self._block(stmt.orelse))
        raise _Refused

    def _expr(self, node):
        if _is_call(node, "_sg.zeros_like") or isinstance(node, (gast.Name, gast.Constant)):
            self._value(node)
            return node
        if isinstance(node, gast.UnaryOp):
            self._value(node)
            return _with(node, operand=self._expr(node.operand))
        if isinstance(node, gast.Call):
            self._value(node)
            return _with(node, args=[self._expr(a) for a in node.args])
        if isinstance(node, gast.BinOp):
            return self._binary(node)
        raise _Refused

    def _binary(self, node):
        (left, l_changed), (right, r_changed) = map(self._value, (node.left, node.right))
        if not (left | right) <= NUMBERS | {NONE}:
            raise _Refused
        new = _with(node, left=self._expr(node.left), right=self._expr(node.right))
        if isinstance(node.op, _EXACT_OPS) or not (l_changed or r_changed):
            return new
        helper = _HELPERS.get(type(node.op))
        if helper is not None and _ONLY64 in (left, right):   # NumPy's operator, surely
            call = syntax.call(helper, [new.left, new.right])
            if helper == "_sg.divide" and isinstance(new.right, gast.Name):
                # Python's operator where the divisor is not zero (one test, no call)
                return gast.IfExp(test=syntax.name(new.right.id), body=new,
                                  orelse=call)
            return call
        names = {n for n in syntax.loaded_names(node) if n in self.converted}
        raise _Sensitive(names) if names else _Refused

    def _unchanged(self, node):
        if any(n in self.changed for n in syntax.loaded_names(node)):
            raise _Refused

    def _returned(self, grads):
        if isinstance(grads, gast.Tuple):
            return _with(grads, elts=[self._returned(e) for e in grads.elts])
        types, changed = self._value(grads)
        new = self._expr(grads)
        if not changed:
            return new
        if types == _ONLY64:
            return syntax.call("_sg.float64", [new])
        if isinstance(grads, gast.Name) and self.zero_sites.get(grads.id) \
                and types == _ZERO_OR_64:
            return syntax.call("_sg.float64_cotangent", [new])
        raise _Refused

    def _is_pop(self, node):
        return isinstance(node, gast.Call) and not node.args and not node.keywords \
            and syntax.dotted_name(node.func) == f"{self.stack}.pop"


def _library_call(node):
    """``np.sin(x)``, ``math.cos(x)``: a call whose result on a float and on a float64
    is the same (``np``, ``math`` are bound by generated code itself)."""
    name = syntax.dotted_name(node.func) or ""
    module, _, function = name.rpartition(".")
    return not node.keywords and node.args and not any(
        isinstance(a, gast.Starred) for a in node.args) and (
        (module == "np" and function in types_of.FLOAT_UFUNCS | types_of.SAME_KIND_UFUNCS)
        or (module == "math" and function in types_of.MATH_FLOATS))


def _is_call(node, dotted):
    return isinstance(node, gast.Call) and syntax.dotted_name(node.func) == dotted


def _with(node, **fields):
    """A shallow copy of ``node`` with ``fields`` replaced (the original is shared with
    the other generated functions)."""
    new = type(node).__new__(type(node))
    new.__dict__.update(node.__dict__)
    new.__dict__.update(fields)
    return new


def _is_range(node):
    """``range(n)`` or ``reversed(range(n))``: the loops of a backward sweep."""
    if _is_call(node, "reversed") and len(node.args) == 1:
        node = node.args[0]
    return _is_call(node, "range")
