"""A-normal form: one operation per assignment, every operand a name or a literal.

Before::

    y = np.tanh(h * w + c) if h > 0 else -h
    while np.abs(x) > 1e-3:
        x = x / 2

After::

    _cmp = h > 0
    if _cmp:
        _mul = h * w
        _add = _mul + c
        y = np.tanh(_add)
    else:
        y = -h
    _cond = np.abs(x)
    _cond_1 = _cond > 0.001           # (names illustrative)
    while _cond_1:
        x = x / 2
        ...recompute _cond_1...

``and``/``or`` and ternaries become ``if`` statements (keeping short-circuit semantics),
chained comparisons become ``and``, and a target never appears in its own right-hand side
(``x = x * w`` becomes ``_mul = x * w; x = _mul``), which the reverse mode relies on.
"""

from __future__ import annotations

import types

from srcgrad import syntax
from srcgrad.normalize.dict_methods import DictMethods, ListMethods
from srcgrad.normalize.expansions import ExpandingForms
from srcgrad.normalize.functional import FunctionalBuiltins
from srcgrad.normalize.iteration import IterationBuiltins, is_range_call
from srcgrad.syntax import gast

BINOP_NAMES = {
    gast.Add: "add", gast.Sub: "sub", gast.Mult: "mul", gast.Div: "div", gast.Pow: "pow",
    gast.MatMult: "matmul", gast.FloorDiv: "floordiv", gast.Mod: "mod",
    gast.BitAnd: "and", gast.BitOr: "or", gast.BitXor: "xor",
    gast.LShift: "lshift", gast.RShift: "rshift",
}
UNARY_NAMES = {gast.USub: "neg", gast.UAdd: "pos", gast.Not: "not", gast.Invert: "invert"}


def to_anf(body, namer, local_functions=None, parsed=None, inliner=None):
    return _Flattener(namer, local_functions or {}, parsed, inliner).block(body)


class _Flattener(ExpandingForms, IterationBuiltins, FunctionalBuiltins, DictMethods,
                 ListMethods):
    def __init__(self, namer, local_functions, parsed, inliner=None):
        self.namer = namer
        self.local_functions = local_functions
        self.parsed = parsed
        self.inliner = inliner   # inlines small module-level functions (see ``inline``)
        self._assigned = None    # see assigned_names

    # -- statements -------------------------------------------------------------------
    def block(self, body):
        out = []
        for stmt in body:
            new = self.statement(stmt)
            syntax.set_line(new, stmt.lineno)
            if getattr(stmt, "inplace", False) and new and isinstance(new[-1], gast.Assign):
                new[-1].inplace = True   # x += v: the rebinding of x (see analysis.aliases)
            out.extend(new)
        return out

    def statement(self, stmt):
        if isinstance(stmt, gast.Assign):
            return self.assign(stmt.targets[0], stmt.value)
        if isinstance(stmt, gast.Expr):
            update = self.dict_update(stmt.value)
            if update is not None:
                return self.block(update)
            inserted = self.list_insert(stmt.value)
            if inserted is not None:
                return inserted
            pre, value = self.simple(stmt.value)
            return pre + [gast.Expr(value=value)]
        if isinstance(stmt, gast.Return):
            if stmt.value is None:
                return [gast.Return(value=syntax.const(None))]
            pre, value = self.atom(stmt.value, "result")
            return pre + [gast.Return(value=value)]
        if isinstance(stmt, gast.If):
            pre, test = self.condition(stmt.test)
            return pre + [gast.If(test=test, body=self.block(stmt.body),
                                  orelse=self.block(stmt.orelse))]
        if isinstance(stmt, gast.While):
            return self.while_loop(stmt)
        if isinstance(stmt, gast.For):
            return self.for_loop(stmt)
        if isinstance(stmt, gast.With):
            # The context managers are evaluated as written (they carry no derivative).
            return [gast.With(items=stmt.items, body=self.block(stmt.body), type_comment=None)]
        if isinstance(stmt, gast.Try):
            if self.inliner is not None and stmt.handlers:
                self.inliner.try_bodies += 1
            try:
                body = self.block(stmt.body)
            finally:
                if self.inliner is not None and stmt.handlers:
                    self.inliner.try_bodies -= 1
            return [gast.Try(body=body, handlers=stmt.handlers, orelse=[],
                             finalbody=self.block(stmt.finalbody))]
        if isinstance(stmt, (gast.Break, gast.Continue, gast.Raise)):
            return [stmt]
        raise NotImplementedError(type(stmt).__name__)  # the fence stops anything else

    def assign(self, target, value):
        if isinstance(target, gast.Subscript):
            pre, base = self.atom(target.value, "base")
            index_pre, index = self.index(target.slice)
            value_pre, value = self.atom(value, "value")
            store = gast.Subscript(value=base, slice=index, ctx=gast.Store())
            return pre + index_pre + value_pre + [syntax.assign(store, value)]
        preferred = target.id if target.id not in syntax.loaded_names(value) else None
        pre, expr = self.simple(value, preferred=preferred)
        if isinstance(expr, gast.Name) and expr.id == target.id:
            return pre   # the value was computed straight into the target
        if target.id in syntax.loaded_names(expr) and not syntax.is_atom(expr):
            temp = self.namer.temp(_operation_name(expr))
            return pre + [syntax.assign(temp, expr), syntax.assign(target.id, syntax.name(temp))]
        return pre + [syntax.assign(target.id, expr)]

    def condition(self, test):
        pre, expr = self.simple(test)
        if isinstance(expr, gast.Name):
            return pre, expr
        temp = self.namer.temp("cond")
        return pre + [syntax.assign(temp, expr)], syntax.name(temp)

    def while_loop(self, stmt):
        pre, test = self.condition(stmt.test)
        recompute = [syntax.clone(s) for s in pre]
        if not pre:  # the test is a plain name already: nothing to recompute
            recompute = []
        body = self.block(stmt.body)
        if body and _is_loop_exit(body[-1]):
            body = body[:-1] + recompute + body[-1:]
        else:
            body = body + recompute
        return pre + [gast.While(test=test, body=body, orelse=self.block(stmt.orelse))]

    def for_loop(self, stmt):
        rewritten = self.iteration_builtin(stmt)
        if rewritten is not None:
            return rewritten
        if is_range_call(stmt.iter):
            pre, iterable = self.call(stmt.iter)  # kept visible: the reverse mode reverses it
        else:
            pre, iterable = self.atom(stmt.iter, "iterable")
        body = self.block(stmt.body)
        target = stmt.target
        if not isinstance(target, gast.Name):
            holder = self.namer.temp("item")
            from srcgrad.normalize.desugar import desugar

            unpack = [syntax.assign(target, syntax.name(holder))]
            syntax.set_line(unpack, stmt.lineno)
            unpack = self.block(desugar(unpack, self.namer))
            target, body = syntax.name(holder, store=True), unpack + body
        return pre + [gast.For(target=target, iter=iterable, body=body,
                               orelse=self.block(stmt.orelse), type_comment=None)]

    # -- expressions ------------------------------------------------------------------
    def atom(self, expr, hint="value"):
        """Statements computing ``expr`` and a name or literal holding its value (or a
        module constant such as ``np.pi``)."""
        if syntax.is_atom(expr) or self.is_module_constant(expr):
            return [], expr
        if syntax.is_negative_literal(expr):
            return [], syntax.const(-expr.operand.value)
        pre, simple = self.simple(expr)
        if syntax.is_atom(simple):
            return pre, simple
        temp = self.namer.temp(_operation_name(simple) or hint)
        return pre + [syntax.assign(temp, simple)], syntax.name(temp)

    def is_module_constant(self, expr):
        """``np.pi``, ``math.e``: an attribute of a module the function reads globally."""
        dotted = syntax.dotted_name(expr) if isinstance(expr, gast.Attribute) else None
        if dotted is None or self.parsed is None:
            return False
        root = dotted.split(".")[0]
        if root in self.parsed.closure or root in self.assigned_names():
            return False
        try:
            return isinstance(self.parsed.resolve(root), types.ModuleType) \
                and not callable(self.parsed.resolve(dotted))
        except KeyError:
            return False

    def assigned_names(self):
        """The names the user's function assigns (found once: each test of a dotted
        name walked the whole function)."""
        if self._assigned is None:
            self._assigned = frozenset(syntax.names_in(self.parsed.node, gast.Store))
        return self._assigned

    def is_module_path(self, expr):
        """``np.linalg``, ``scipy.special``: a dotted path from a module read globally."""
        dotted = syntax.dotted_name(expr)
        if dotted is None or self.parsed is None:
            return False
        root = dotted.split(".")[0]
        if root in self.parsed.closure or root in self.assigned_names() \
                or root in syntax.param_names(self.parsed.node.args):
            return False
        try:
            return isinstance(self.parsed.resolve(root), types.ModuleType)
        except KeyError:
            return False

    def is_local(self, dotted):
        """Is the root of ``dotted`` a value rather than a module (``x.T.T``: an attribute
        of an attribute of a value, one operation each)? Names of inlined helpers count:
        anything that is not a module the function reads globally."""
        if self.parsed is None:
            return False
        return not self.is_module_path(syntax.quote_expr(dotted.split(".")[0]))

    def atoms(self, exprs):
        pre, out = [], []
        for expr in exprs:
            p, a = self.atom(expr)
            pre += p
            out.append(a)
        return pre, out

    def simple(self, expr, preferred=None):
        """Statements and ONE operation on atoms equal to ``expr``."""
        if syntax.is_atom(expr) or isinstance(expr, gast.JoinedStr):
            return [], expr
        if isinstance(expr, gast.BinOp):
            pre, (left, right) = self.atoms([expr.left, expr.right])
            return pre, gast.BinOp(left=left, op=expr.op, right=right)
        if syntax.is_negative_literal(expr):
            return [], syntax.const(-expr.operand.value)
        if isinstance(expr, gast.UnaryOp):
            pre, operand = self.atom(expr.operand)
            if isinstance(expr.op, gast.UAdd):
                return pre, operand
            return pre, gast.UnaryOp(op=expr.op, operand=operand)
        if isinstance(expr, gast.Compare):
            return self.compare(expr)
        if isinstance(expr, gast.BoolOp):
            return self.bool_op(expr, preferred)
        if isinstance(expr, gast.IfExp):
            return self.if_exp(expr, preferred)
        if isinstance(expr, gast.Call):
            if isinstance(expr.func, gast.Name) and expr.func.id in self.local_functions:
                return self.inline_call(expr, self.local_functions[expr.func.id], preferred)
            if syntax.spreads(expr):   # f(*xs), f(**kw): a call resolved when it runs
                lowered = self.iteration_value(expr)
                return lowered if lowered is not None else self.call(expr)
            found = self.inliner.candidate(expr.func.id) if (
                self.inliner and isinstance(expr.func, gast.Name)) else None
            if found is not None:
                self.inliner.entering(found[1])
                try:
                    return self.inline_call(expr, found[0], preferred,
                                            wrap_variables=self.inliner.eager)
                finally:
                    self.inliner.leaving()
            lowered = self.functional_call(expr)
            if lowered is None:
                lowered = self.dict_setdefault(expr, preferred)
            if lowered is None:
                lowered = self.iteration_value(expr)
            return lowered if lowered is not None else self.call(expr)
        if isinstance(expr, (gast.ListComp, gast.GeneratorExp, gast.DictComp)):
            return self.comprehension(expr)
        if isinstance(expr, gast.Subscript):
            pre, base = self.atom(expr.value, "base")
            index_pre, index = self.index(expr.slice)
            return pre + index_pre, gast.Subscript(value=base, slice=index, ctx=gast.Load())
        if isinstance(expr, gast.Attribute):
            dotted = syntax.dotted_name(expr)
            if dotted and (isinstance(expr.value, gast.Name) or not self.is_local(dotted)):
                return [], expr   # x.T, np.linalg.norm: one attribute, or a module path
            pre, base = self.atom(expr.value, "base")
            return pre, gast.Attribute(value=base, attr=expr.attr, ctx=gast.Load())
        if isinstance(expr, (gast.Tuple, gast.List)):
            pre, elts = self.atoms(expr.elts)
            return pre, type(expr)(elts=elts, ctx=gast.Load())
        if isinstance(expr, gast.Dict):
            if any(key is None for key in expr.keys):
                raise NotImplementedError("dict unpacking")  # fenced
            pre, keys = self.atoms(expr.keys)
            values_pre, values = self.atoms(expr.values)
            keys, values = _merged_constant_keys(keys, values)
            return pre + values_pre, gast.Dict(keys=keys, values=values)
        raise NotImplementedError(type(expr).__name__)  # the fence stops anything else

    def call(self, expr):
        pre = []
        func = expr.func
        if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Attribute) \
                and not self.is_module_path(func.value):
            # m.T.reshape(-1): the method's object is a value (m.T), not a module path.
            pre, base = self.atom(func.value, "base")
            func = gast.Attribute(value=base, attr=func.attr, ctx=gast.Load())
        elif not (isinstance(func, gast.Name) or syntax.dotted_name(func)):
            if isinstance(func, gast.Attribute):
                pre, base = self.atom(func.value, "base")
                func = gast.Attribute(value=base, attr=func.attr, ctx=gast.Load())
            else:
                pre, func = self.atom(func, "func")
        args_pre, args = self.call_arguments(expr.args)
        keywords = []
        for kw in expr.keywords:
            kw_pre, value = self.atom(kw.value)
            args_pre += kw_pre
            keywords.append(gast.keyword(arg=kw.arg, value=value))
        return pre + args_pre, gast.Call(func=func, args=args, keywords=keywords)

    def call_arguments(self, exprs):
        """``atoms`` of a call's positional arguments; ``*xs`` stays a starred atom."""
        pre, out = [], []
        for expr in exprs:
            starred = isinstance(expr, gast.Starred)
            p, a = self.atom(expr.value if starred else expr, "args" if starred else "value")
            pre += p
            out.append(gast.Starred(value=a, ctx=gast.Load()) if starred else a)
        return pre, out

    def index(self, index):
        if isinstance(index, gast.Tuple):
            pre, parts = [], []
            for elt in index.elts:
                p, part = self.index_part(elt)
                pre += p
                parts.append(part)
            return pre, gast.Tuple(elts=parts, ctx=gast.Load())
        return self.index_part(index)

    def index_part(self, part):
        if isinstance(part, gast.Slice):
            pre, bounds = [], []
            for bound in (part.lower, part.upper, part.step):
                if bound is None:
                    bounds.append(None)
                    continue
                p, a = self.atom(bound, "bound")
                pre += p
                bounds.append(a)
            return pre, gast.Slice(lower=bounds[0], upper=bounds[1], step=bounds[2])
        return self.atom(part, "index")


def _is_loop_exit(stmt):
    """The ``if stop_loop: break`` that ``control_flow`` puts at the end of a loop body."""
    return (isinstance(stmt, gast.If) and len(stmt.body) == 1
            and isinstance(stmt.body[0], gast.Break) and not stmt.orelse)


def _operation_name(expr):
    if isinstance(expr, gast.BinOp):
        return BINOP_NAMES.get(type(expr.op), "binop")
    if isinstance(expr, gast.UnaryOp):
        return UNARY_NAMES.get(type(expr.op), "unary")
    if isinstance(expr, gast.Compare):
        return "cmp"
    if isinstance(expr, gast.Call):
        func = expr.func
        if syntax.dotted_name(func) == "_sg.read_variable" and isinstance(expr.args[0], gast.Name):
            return expr.args[0].id.lstrip("_") + "_value"   # w_value = _sg.read_variable(w)
        return func.attr if isinstance(func, gast.Attribute) else getattr(func, "id", "call")
    if isinstance(expr, gast.Subscript):
        base = expr.value.id if isinstance(expr.value, gast.Name) else "item"
        return base.lstrip("_") + "_item"
    if isinstance(expr, gast.Attribute):
        return expr.attr
    if isinstance(expr, gast.Tuple):
        return "tuple"
    if isinstance(expr, gast.List):
        return "list"
    if isinstance(expr, gast.Dict):
        return "dict"
    return None


def _merged_constant_keys(keys, values):
    """A display giving one constant key twice (``{'a': x, 'a': y}``, as ``dict(pairs)``
    writes out) holds the key where it first appears with the value given last, as Python
    builds it: the earlier value is evaluated but not held, so it gets no cotangent."""
    first, merged_keys, merged_values = {}, [], []
    for key, value in zip(keys, values):
        try:
            seen = first.get(key.value) if isinstance(key, gast.Constant) else None
        except TypeError:   # an unhashable constant: Python raises it when it runs
            seen = None
        if seen is not None:
            merged_values[seen] = value
            continue
        if isinstance(key, gast.Constant):
            first[key.value] = len(merged_keys)
        merged_keys.append(key)
        merged_values.append(value)
    return merged_keys, merged_values
