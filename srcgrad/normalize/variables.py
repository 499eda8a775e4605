"""Route every load that may be a Variable through ``_sg.read_variable``.

Before (``w`` a global Variable, ``model`` a parameter, ``x`` a local array)::

    def loss(model, data):
        x = data * 2.0
        for layer in model.layers:
            x = np.tanh(x @ layer.w)
        return np.sum(x * w) + x[0]

After, in an eager unit (``implicit``)::

    def loss(model, data):
        x = data * 2.0
        for _layer in _sg.read_variable(model.layers):
            layer = _sg.read_variable(_layer)
            x = np.tanh(x @ _sg.read_variable(layer.w))
        return np.sum(x * _sg.read_variable(w)) + x[0]

``read_variable`` returns a Variable's value (registering the read) and any other
object unchanged; the reverse mode treats its result as a differentiable source whose
cotangent goes back to the Variable. What is wrapped in an eager unit: free names that
are Variables now; attribute loads (but not array attributes such as ``.shape``/``.T``,
nor chains rooted at a module such as ``np.pi``); subscript loads and loop items of
anything but a local array. In a plain unit (``grad``) only what denotes a Variable now
(a free name, a dotted path from one, an item of a global container) is wrapped, so
Variables are constants there and code without Variables is left as it was.

In both, a free name or dotted path that holds an ``sg.constant`` now is read as its
value, ``_sg.read_constant(C)``: left as a Tensor, its operators would compute outside
the generated code and the result's cotangent would be lost.
"""

from __future__ import annotations

import types

import numpy as np

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.normalize import map_blocks
from srcgrad.rules import NONDIFF_ATTRIBUTES
from srcgrad.rules.methods import ARRAY_ATTRIBUTES, ARRAY_METHODS, NONDIFF_METHODS
from srcgrad.runtime.variables import ConstantBase, VariableBase
from srcgrad.syntax import gast

READ = "_sg.read_variable"
READ_CONSTANT = "_sg.read_constant"
_KEEP_ATTRIBUTES = set(NONDIFF_ATTRIBUTES) | set(ARRAY_ATTRIBUTES)
_ARRAY_METHOD_NAMES = set(ARRAY_METHODS) | set(NONDIFF_METHODS)
_VALUE_ACCESSORS = {"value", "numpy", "read_value"}


def wrap_variable_reads(body, parsed, namer, implicit):
    """Rewrite ``body`` (desugared, single exit) so Variable reads are explicit."""
    wrapper = _Wrapper(parsed, namer, implicit, _array_locals(parsed.node, body))

    def rewrite(stmt):
        return wrapper.statement(stmt)

    return map_blocks(body, rewrite)


def _array_locals(node, body):
    """Locals assigned only from arithmetic, literals, NumPy calls or other such locals:
    they hold arrays and numbers, never Variables or containers of them."""
    params = {a.id for a in node.args.args}
    sources = {}
    for stmt in _walk(body):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            sources.setdefault(stmt.targets[0].id, []).append(stmt.value)
        elif isinstance(stmt, gast.For):
            for name in syntax.names_in(stmt.target, gast.Store):
                sources.setdefault(name, []).append(None)
    arrays = set()
    # each round that goes on adds a name: at most as many rounds as names, plus one
    for _ in fixpoint.rounds(len(sources) + 1, "the locals holding only arrays"):
        changed = False
        for name, values in sources.items():
            if name not in arrays and name not in params and all(
                    _array_valued(v, arrays) for v in values):
                arrays.add(name)
                changed = True
        if not changed:
            break
    return arrays


def _array_valued(expr, arrays):
    if isinstance(expr, (gast.BinOp, gast.UnaryOp, gast.Compare, gast.Constant)):
        return True
    if isinstance(expr, gast.Name):
        return expr.id in arrays
    if isinstance(expr, gast.Call):
        dotted = syntax.dotted_name(expr.func) or ""
        return dotted.split(".")[0] in ("np", "numpy", "math")
    return False


def _walk(body):
    for stmt in body:
        yield stmt
        for field in ("body", "orelse"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt):
                yield from _walk(inner)


class _Wrapper:
    def __init__(self, parsed, namer, implicit, array_locals):
        self.parsed, self.namer, self.implicit = parsed, namer, implicit
        self.array_locals = array_locals
        self.locals = {a.id for a in parsed.node.args.args} | {
            n for n in syntax.names_in(parsed.node, gast.Store)}

    # -- statements ------------------------------------------------------------------
    def statement(self, stmt):
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0]
            if isinstance(target, gast.Subscript):
                target.slice = self.value(target.slice)
            stmt.value = self.value(stmt.value)
        elif isinstance(stmt, (gast.Expr, gast.Return)) and stmt.value is not None:
            stmt.value = self.value(stmt.value)
        elif isinstance(stmt, (gast.If, gast.While)):
            stmt.test = self.value(stmt.test)
        elif isinstance(stmt, gast.For):
            return self.for_loop(stmt)
        elif isinstance(stmt, gast.Raise) and stmt.exc is not None:
            stmt.exc = self.value(stmt.exc)
        return [stmt]

    def for_loop(self, stmt):
        stmt.iter = self.value(stmt.iter)
        iterable = stmt.iter
        if not isinstance(stmt.target, gast.Name) or not self.may_yield_variables(iterable):
            return [stmt]
        item = stmt.target.id
        holder = self.namer.temp(item)
        stmt.target = syntax.name(holder, store=True)
        read = syntax.assign(item, self.read(syntax.name(holder)))
        read.lineno = stmt.lineno
        stmt.body = [read] + stmt.body
        return [stmt]

    def may_yield_variables(self, iterable):
        if isinstance(iterable, gast.Name) and iterable.id not in self.locals:
            return self.holds_variables_now(iterable.id)
        if _is_range(iterable) or (isinstance(iterable, gast.Name)
                                   and iterable.id in self.array_locals):
            return False
        return self.implicit

    # -- expressions -----------------------------------------------------------------
    def value(self, node):
        """``node`` (an expression in a value position) with its Variable reads wrapped."""
        if isinstance(node, gast.Name):
            if self.is_variable_now(node.id):
                return self.read(node)
            return self.read_constant(node) if self.denotes_constant(node) else node
        if isinstance(node, gast.Attribute):
            return self.attribute(node)
        if isinstance(node, gast.Subscript):
            return self.subscript(node)
        if isinstance(node, gast.Call):
            return self.call(node)
        for field, child in gast.iter_fields(node):
            if isinstance(child, list):
                setattr(node, field, [self.value(c) if isinstance(c, gast.expr) else
                                      self.keyword(c) for c in child])
            elif isinstance(child, gast.expr):
                setattr(node, field, self.value(child))
        return node

    def keyword(self, node):
        if isinstance(node, gast.keyword):
            node.value = self.value(node.value)
        return node

    def attribute(self, node):
        dotted = syntax.dotted_name(node)
        if dotted and self.rooted_at_module(dotted):
            return node
        if node.attr in _VALUE_ACCESSORS and self.denotes_variable(node.value):
            return self.read(node.value)
        if node.attr in _KEEP_ATTRIBUTES:
            node.value = self.value(node.value)
            return node
        if self.denotes_constant(node):
            return self.read_constant(node)
        node.value = self.base(node.value)
        if self.is_container_now(node):
            return node
        if self.implicit or self.denotes_variable(node):
            return self.read(node)
        return node

    def subscript(self, node):
        node.slice = self.value(node.slice)
        base = node.value
        if self.is_container_now(node):
            return node
        if isinstance(base, gast.Name) and self.is_variable_now(base.id):
            node.value = self.read(base)   # an item of a Variable: of its value
            return node
        if isinstance(base, gast.Name) and (base.id in self.array_locals or (
                base.id not in self.locals and not self.holds_variables_now(base.id))):
            return node
        if not self.is_container_now(base):
            node.value = self.value(base)
        if self.implicit or (isinstance(base, gast.Name) and base.id not in self.locals):
            return self.read(node)
        return node

    def call(self, node):
        node.args = [self.value(a) for a in node.args]
        node.keywords = [self.keyword(k) for k in node.keywords]
        func = node.func
        if isinstance(func, gast.Attribute) and not self.rooted_at_module(
                syntax.dotted_name(func) or ""):
            if func.attr in _VALUE_ACCESSORS and not node.args \
                    and self.denotes_variable(func.value):
                return self.read(func.value)
            if func.attr in _ARRAY_METHOD_NAMES:
                func.value = self.value(func.value)
            else:
                func.value = self.base(func.value)
        return node

    def base(self, node):
        """The object of an attribute access: its own inner loads are wrapped, not it."""
        if isinstance(node, gast.Attribute):
            node.value = self.base(node.value)
            return node
        if isinstance(node, gast.Subscript):
            node.slice = self.value(node.slice)
            node.value = self.base(node.value)
            return node
        if isinstance(node, gast.Name):
            return node
        return self.value(node)

    def read(self, node):
        return syntax.call(READ, [node])

    def read_constant(self, node):
        return syntax.call(READ_CONSTANT, [node])

    # -- what names denote now -------------------------------------------------------
    def resolve(self, dotted):
        if not dotted or dotted.split(".")[0] in self.locals:
            raise KeyError(dotted)
        return self.parsed.resolve(dotted)

    def is_variable_now(self, name):
        try:
            return isinstance(self.resolve(name), VariableBase)
        except KeyError:
            return False

    def denotes_variable(self, node):
        try:
            return isinstance(self.resolve(syntax.dotted_name(node)), VariableBase)
        except KeyError:
            return False

    def denotes_constant(self, node):
        """Does ``node`` (a free name or a dotted path from one) hold an ``sg.constant``
        now? Its value is read (its operators would compute outside srcgrad's view)."""
        try:
            return isinstance(self.resolve(syntax.dotted_name(node)), ConstantBase)
        except KeyError:
            return False

    def is_container_now(self, node):
        """Does ``node`` (a chain like ``params["layers"][0]`` from a free name) denote
        something other than a Variable now (so reading it needs no wrapping)?"""
        if isinstance(node, gast.Subscript) and isinstance(node.slice, gast.Constant):
            holder = self.is_container_now(node.value)
            try:
                item = holder and holder[node.slice.value]
            except (KeyError, IndexError, TypeError):
                return False
            if isinstance(item, VariableBase):
                return False
            return True if isinstance(item, np.ndarray) else item   # (no truth value)
        try:
            obj = self.resolve(syntax.dotted_name(node))
        except KeyError:
            return False
        return isinstance(obj, (list, tuple, dict)) and obj

    def holds_variables_now(self, name):
        try:
            obj = self.resolve(name)
        except KeyError:
            return False
        items = obj.values() if isinstance(obj, dict) else obj
        return isinstance(obj, (list, tuple, dict)) and (
            self.implicit or any(isinstance(v, VariableBase) for v in items))

    def rooted_at_module(self, dotted):
        try:
            return isinstance(self.resolve(dotted.split(".")[0]), types.ModuleType)
        except KeyError:
            return False


def _is_range(expr):
    return isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name) \
        and expr.func.id == "range"
