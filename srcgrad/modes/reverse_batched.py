"""Batched reverse mode: one backward sweep carries ``B`` cotangents at once, each
cotangent with a trailing axis of length ``B`` (``runtime.batched_reverse``), so
``sg.jacobian`` and ``sg.jacrev`` take all the rows of a Jacobian (a chunk of them) in
one forward sweep and one backward sweep.

The batched sweep is the one-row backward sweep rewritten statement by statement (the
cotangents are the names reverse mode made as adjoints, and whatever is computed from
them). Before::

    d_mul = dy * np.cos(_mul)
    dx = _sg.unbroadcast_product(d_mul, w, x)
    _sg.add_at(dp, slice(0, 3), dx)
    dv = np.linalg.inv(a) @ dw

After (``dy``: ``y``'s shape + ``(B,)``)::

    d_mul = dy * _sg.lifted(np.cos(_mul))
    dx = _sg.batch_unbroadcast(d_mul * _sg.lifted(w), x)
    _sg.batch_add_at(dp, slice(0, 3), dx)
    dv = _sg.map_rows(lambda _row0: np.linalg.inv(a) @ _row0, dw)

Arithmetic (``+ - * /``, NumPy's ufuncs) of cotangents and primals keeps its form with
every primal lifted (``x[..., None]``): NumPy aligns shapes from the right, so the rows'
axis never meets a primal's. The helpers that sum, spread, index or make zeros have
batched forms; any other step runs once per row (``_sg.map_rows``), which is right for
every step since a backward sweep is linear in its cotangents. What has no batched form
(a cotangent in a branch's test, a loop's iterable or an index, a cotangent made from
something not known to be zero) raises ``NotBatchable``: the caller then takes the rows
one backward sweep at a time.
"""

from __future__ import annotations

import numpy as np

from srcgrad import syntax
from srcgrad.syntax import gast

ROWS = "_rows"   # the number of rows, bound at the top of the batched backward sweep


class NotBatchable(Exception):
    """The backward sweep has a step that batched reverse mode does not transform."""


# One-row helper -> its batched form, same arguments (the first is the cotangent).
_SAME_ARGS = {"_sg.unbroadcast": "_sg.batch_unbroadcast",
              "_sg.expand_summed": "_sg.batch_expand_summed",
              "_sg.spread_to": "_sg.batch_spread_to",
              "_sg.sum_adjoint": "_sg.batch_sum_adjoint",
              "_sg.dot_adjoint_a": "_sg.batch_dot_adjoint_a",
              "_sg.dot_adjoint_b": "_sg.batch_dot_adjoint_b",
              "_sg.matmul_adjoint_a": "_sg.batch_matmul_adjoint_a",
              "_sg.matmul_adjoint_b": "_sg.batch_matmul_adjoint_b",
              "_sg.concatenate_adjoint": "_sg.batch_concatenate_adjoint",
              "_sg.array_adjoint": "_sg.batch_array_adjoint"}
# ... with the number of rows appended.
_WITH_ROWS = {"_sg.dense": "_sg.batch_dense", "_sg.restructure": "_sg.batch_restructure",
              "_sg.get_item": "_sg.batch_get_item", "_sg.cast_adjoint": "_sg.batch_cast_adjoint"}
_ARITY = {"_sg.get_item": 3, "_sg.cast_adjoint": 3}   # (else 2)
# Helpers that act on cotangents elementwise or item by item: kept as they are.
_KEPT = frozenset({"_sg.match_real", "_sg.in_dtype_of",
                   # list structure only (the items, batched or not, are moved as they are)
                   "_sg.pop_last", "_sg.snapshot"})
_SUMS = frozenset({"_sg.add_cotangents", "_sg.add_into"})   # of two cotangents
# Zero cotangents -> their batched forms (the number of rows appended).
_ZEROS = {"_sg.zeros_like": "_sg.batch_zeros_like", "_sg.slots_like": "_sg.batch_slots_like",
          "_sg.wrt_zeros": "_sg.batch_wrt_zeros"}
# Names of steps that may write into their arguments (never run once per row).
_WRITES = ("pop", "insert", "extend", "append", "remove", "clear", "restore", "_into",
           "set_", "put", "write", "update", "reverse", "sort", "del", "add_at", "fill")
_PURE_METHODS = frozenset({"conj", "conjugate", "copy", "reshape", "ravel", "flatten",
                           "transpose", "sum", "mean", "astype", "squeeze", "swapaxes"})
_ELEMENTWISE_OPS = (gast.Add, gast.Sub, gast.Mult, gast.Div)
# NumPy functions elementwise in every argument that are not ufuncs.
_ELEMENTWISE_FUNCTIONS = frozenset({"real", "imag", "where"})


class BatchedBackward:
    """Rewrites a backward sweep's statements into the batched sweep's."""

    def __init__(self, cotangents, taken):
        self.cotangents = set(cotangents)
        self.taken = set(taken)
        self.fallbacks = 0   # steps run once per row (for tests and the docs)

    def run(self, body):
        self._close(body)
        return self.block(body)

    # -- which names hold cotangents -----------------------------------------------------
    def _close(self, body):
        """Add to the cotangents every name assigned from an expression that reads one
        (to a fixed point: at most one pass per name)."""
        stores = [s for s in syntax.statements(body) if isinstance(s, (gast.Assign,
                                                                      gast.AugAssign))]
        for _ in range(len(stores) + 1):
            grown = False
            for stmt in stores:
                targets = stmt.targets if isinstance(stmt, gast.Assign) else [stmt.target]
                if not self.reads(stmt.value):
                    continue
                for target in targets:
                    for name in _stored_names(target):
                        if name not in self.cotangents:
                            self.cotangents.add(name)
                            grown = True
            if not grown:
                return
        raise AssertionError("unreachable: the closure grows by a name per pass")

    def reads(self, node):
        return any(n in self.cotangents for n in syntax.loaded_names(node))

    # -- statements ----------------------------------------------------------------------
    def block(self, body):
        out = []
        for stmt in body:
            out.extend(self.statement(stmt))
        return out

    def statement(self, stmt):
        if isinstance(stmt, gast.Assign):
            return [self.assign(stmt)]
        if isinstance(stmt, gast.AugAssign):
            if isinstance(stmt.target, gast.Subscript):
                self.refuse_in(stmt.target.slice, "an index")
            value = self.expr(stmt.value) if self.reads(stmt.value) else None
            if value is None or not self.holds_cotangent(stmt.target):
                raise NotBatchable("a cotangent added to a value that is not one")
            return [gast.AugAssign(target=self.target(stmt.target), op=stmt.op, value=value)]
        if isinstance(stmt, gast.Expr):
            return [self.bare(stmt)]
        if isinstance(stmt, gast.If):
            self.refuse_in(stmt.test, "a branch's test")
            return [gast.If(test=stmt.test, body=self.block(stmt.body) or [gast.Pass()],
                            orelse=self.block(stmt.orelse))]
        if isinstance(stmt, (gast.For, gast.While)):
            self.refuse_in(stmt.iter if isinstance(stmt, gast.For) else stmt.test,
                           "a loop's iterable or test")
            if isinstance(stmt, gast.For) and self.reads(stmt.target):
                raise NotBatchable("a loop over cotangents")
            stmt.body, stmt.orelse = self.block(stmt.body) or [gast.Pass()], \
                self.block(stmt.orelse)
            return [stmt]
        if isinstance(stmt, gast.Return):
            return [gast.Return(value=self.returned(stmt.value))]
        if isinstance(stmt, (gast.Delete, gast.Pass, gast.Break, gast.Continue)):
            return [stmt]
        if isinstance(stmt, gast.Try) and not stmt.handlers:
            stmt.body, stmt.finalbody = self.block(stmt.body), self.block(stmt.finalbody)
            return [stmt]
        if self.reads(stmt):
            raise NotBatchable(f"a {type(stmt).__name__} statement over cotangents")
        return [stmt]

    def assign(self, stmt):
        target = stmt.targets[0]
        if isinstance(target, gast.Subscript):
            self.refuse_in(target.slice, "an index")
        value = stmt.value
        if self.reads(value):
            value = self.expr(value)
        elif self.holds_cotangent(target):
            value = self.zero(value)
        return gast.Assign(targets=[self.target(target)], value=value, type_comment=None)

    def holds_cotangent(self, target):
        if isinstance(target, gast.Subscript):
            return self.holds_cotangent(target.value)
        return any(n in self.cotangents for n in _stored_names(target))

    def target(self, target):
        if isinstance(target, gast.Subscript) and self.holds_cotangent(target.value):
            return gast.Subscript(value=target.value, slice=batched_index(target.slice),
                                  ctx=target.ctx)
        return target

    def zero(self, value):
        """A cotangent bound to a value that reads none: a zero, or a value the stack of
        saved cotangents gives back."""
        if isinstance(value, gast.Constant) and value.value is None:
            return value   # a zero not built
        if isinstance(value, gast.Constant) and isinstance(value.value, (int, float)) \
                and value.value == 0:
            return syntax.quote_expr("_sg.batch_zeros_like(c, n)", c=value, n=ROWS)
        if isinstance(value, gast.Call):
            dotted = syntax.dotted_name(value.func)
            if dotted in _ZEROS and not value.keywords and (
                    dotted != "_sg.wrt_zeros" or len(value.args) == 2):
                return gast.Call(func=syntax.quote_expr(_ZEROS[dotted]),
                                 args=list(value.args) + [syntax.name(ROWS)], keywords=[])
            if isinstance(value.func, gast.Attribute) and value.func.attr == "pop" \
                    and not value.args:
                return value   # ``d = stack.pop()``: a cotangent saved batched
        raise NotBatchable(f"a cotangent bound to `{_text(value)}`")

    def bare(self, stmt):
        if not self.reads(stmt.value):
            return stmt
        call = stmt.value
        if isinstance(call, gast.Call) and syntax.dotted_name(call.func) == "_sg.add_at" \
                and len(call.args) == 3 and not call.keywords:
            return gast.Expr(value=self.expr(call))
        if isinstance(call, gast.Call) and syntax.dotted_name(call.func) == "_sg.clear_item" \
                and len(call.args) == 2 and not call.keywords and not self.reads(call.args[1]):
            return gast.Expr(value=gast.Call(func=syntax.quote_expr("_sg.batch_clear_item"),
                                             args=call.args, keywords=[]))
        if isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) \
                and call.func.attr == "append" and not self.reads(call.func.value):
            return stmt   # ``stack.append(d)``: a cotangent saved, batched as it is
        raise NotBatchable(f"the call `{_text(call)}` over cotangents")

    def returned(self, value):
        if value is None or not self.reads(value) and not _wrt_zeros(value):
            return value
        if isinstance(value, gast.Tuple):
            return gast.Tuple(elts=[self.returned(e) for e in value.elts], ctx=gast.Load())
        if _wrt_zeros(value):
            return self.zero(value)
        return self.expr(value)

    def refuse_in(self, node, what):
        if self.reads(node):
            raise NotBatchable(f"a cotangent in {what}")

    # -- expressions ---------------------------------------------------------------------
    def operand(self, node):
        """``node`` as an operand of an elementwise step: batched if it reads a
        cotangent, else lifted (a primal; numbers stay as they are)."""
        if self.reads(node):
            return self.expr(node)
        if isinstance(node, gast.Constant):
            return node
        return syntax.quote_expr("_sg.lifted(x)", x=node)

    def expr(self, node):
        """The batched form of ``node``, which reads a cotangent."""
        if isinstance(node, gast.Name):
            return node
        if isinstance(node, gast.BinOp) and isinstance(node.op, _ELEMENTWISE_OPS):
            return gast.BinOp(left=self.operand(node.left), op=node.op,
                              right=self.operand(node.right))
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
            return gast.UnaryOp(op=node.op, operand=self.expr(node.operand))
        if isinstance(node, gast.Call):
            found = self.call(node)
            if found is not None:
                return found
        if isinstance(node, gast.Subscript) and not self.reads(node.slice):
            return gast.Subscript(value=self.expr(node.value), slice=batched_index(node.slice),
                                  ctx=gast.Load())
        if isinstance(node, (gast.Tuple, gast.List)) and all(
                self.reads(e) or _is_none(e) for e in node.elts):
            return type(node)(elts=[e if _is_none(e) else self.expr(e) for e in node.elts],
                              ctx=gast.Load())
        if isinstance(node, (gast.Compare, gast.BoolOp)):
            raise NotBatchable(f"a cotangent compared: `{_text(node)}`")
        return self.per_row(node)

    def call(self, node):
        """The batched form of a call reading a cotangent, or None (run per row)."""
        dotted = syntax.dotted_name(node.func) or ""
        args = node.args
        if dotted == "np.cross" and _last_axes(node.keywords) and len(args) == 2 \
                and self.reads(args[0]) != self.reads(args[1]):
            return syntax.quote_expr("_sg.batch_cross(a, b)", a=self.operand(args[0]),
                                     b=self.operand(args[1]))
        if node.keywords or any(isinstance(a, gast.Starred) for a in args):
            return None
        first_only = bool(args) and self.reads(args[0]) \
            and not any(self.reads(a) for a in args[1:])
        if dotted == "_sg.unbroadcast_product" and len(args) == 3 and not self.reads(args[2]):
            return self._product(args)
        if dotted == "_sg.add_at" and len(args) == 3 and not self.reads(args[1]) \
                and self.reads(args[0]) and self.reads(args[2]):
            return gast.Call(func=syntax.quote_expr("_sg.batch_add_at"), keywords=[],
                             args=[self.expr(args[0]), args[1], self.expr(args[2])])
        if dotted == "_sg.dynamic_backward" and len(args) == 2 and not self.reads(args[0]) \
                and self.reads(args[1]):   # (a call through a value: its saved values, g)
            return gast.Call(func=syntax.quote_expr("_sg.batch_dynamic_backward"),
                             args=[args[0], self.expr(args[1])], keywords=[])
        if isinstance(node.func, gast.Name) and len(args) == 2 \
                and not any(part in node.func.id for part in _WRITES) \
                and not self.reads(node.func) and not self.reads(args[0]) \
                and self.reads(args[1]):   # a callee's backward(saved, g), checked as it runs
            return gast.Call(func=syntax.quote_expr("_sg.batch_callee_backward"),
                             args=[node.func, args[0], self.expr(args[1])], keywords=[])
        if dotted == "np.reshape" and len(args) == 2 and first_only:   # (C order)
            return gast.Call(func=syntax.quote_expr("_sg.batch_reshape_rows"),
                             args=[self.expr(args[0]), args[1]], keywords=[])
        if dotted in _SAME_ARGS and first_only:
            return gast.Call(func=syntax.quote_expr(_SAME_ARGS[dotted]),
                             args=[self.expr(args[0])] + list(args[1:]), keywords=[])
        if dotted in _WITH_ROWS and len(args) == _ARITY.get(dotted, 2) and first_only:
            return gast.Call(func=syntax.quote_expr(_WITH_ROWS[dotted]),
                             args=[self.expr(args[0])] + list(args[1:]) + [syntax.name(ROWS)],
                             keywords=[])
        if dotted in _SUMS and len(args) == 2 and all(self.reads(a) or _is_none(a)
                                                      for a in args):
            return gast.Call(func=node.func, keywords=[],
                             args=[a if _is_none(a) else self.expr(a) for a in args])
        if dotted in _KEPT and first_only:
            return gast.Call(func=node.func, args=[self.expr(args[0])] + list(args[1:]),
                             keywords=[])
        return self._elementwise(dotted, node)

    def _product(self, args):
        """``unbroadcast_product(a, b, x)`` is ``unbroadcast(a * b, x)``."""
        product = gast.BinOp(left=self.operand(args[0]), op=gast.Mult(),
                             right=self.operand(args[1]))
        return syntax.quote_expr("_sg.batch_unbroadcast(p, x)", p=product, x=args[2])

    def _elementwise(self, dotted, node):
        """A NumPy function elementwise in all its arguments, with the primal ones
        lifted; None for anything else."""
        if not dotted.startswith("np.") or dotted.count(".") != 1:
            return None
        name = dotted[3:]
        if not (isinstance(getattr(np, name, None), np.ufunc)
                or name in _ELEMENTWISE_FUNCTIONS):
            return None
        return gast.Call(func=node.func, args=[self.operand(a) for a in node.args],
                         keywords=[])

    def per_row(self, node):
        """``_sg.map_rows(lambda _row0, ...: node, d0, ...)``: ``node`` run once per row
        of the cotangents it reads. Each row gets its own slices of them (and new lists),
        so a step that writes into a cotangent cannot run so: refused."""
        for call in (n for n in syntax.walk(node) if isinstance(n, gast.Call)):
            name = (syntax.dotted_name(call.func) or "").rsplit(".", 1)[-1]
            if any(k.arg == "out" for k in call.keywords) or any(
                    part in name for part in _WRITES) or (
                    isinstance(call.func, gast.Attribute) and self.reads(call.func.value)
                    and call.func.attr not in _PURE_METHODS):
                raise NotBatchable(f"`{_text(call)}`, which may write into a cotangent")
        names = sorted({n for n in syntax.loaded_names(node) if n in self.cotangents})
        params = [self._fresh(f"_row{i}") for i in range(len(names))]
        renamed = syntax.clone(node)
        for sub in syntax.walk(renamed):
            if isinstance(sub, gast.Name) and sub.id in names \
                    and isinstance(sub.ctx, gast.Load):
                sub.id = params[names.index(sub.id)]
        lam = gast.Lambda(args=gast.arguments(
            args=[syntax.param(p) for p in params], posonlyargs=[], vararg=None,
            kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]), body=renamed)
        self.fallbacks += 1
        return gast.Call(func=syntax.quote_expr("_sg.map_rows"),
                         args=[lam] + [syntax.name(n) for n in names], keywords=[])

    def _fresh(self, base):
        name = base
        while name in self.taken:
            name = "_" + name
        return name


def batched_index(index):
    """A cotangent's index: as the primal's when made of literal numbers and slices, else
    through ``_sg.batch_index`` (an ``...`` in it, known only when it runs)."""
    elts = index.elts if isinstance(index, gast.Tuple) else [index]
    if all(isinstance(e, gast.Slice) or isinstance(e, gast.Constant)
           and isinstance(e.value, int) for e in elts):
        return index
    return syntax.quote_expr("_sg.batch_index(i)", i=syntax.index_value(syntax.clone(index)))


def _last_axes(keywords):
    """Are these ``np.cross`` keywords the defaults (vectors on the last axes)?"""
    values = {k.arg: k.value for k in keywords}
    if not set(values) <= {"axisa", "axisb", "axisc", "axis"} or "axis" in values \
            and not _is_none(values["axis"]):
        return False
    return all(_constant(v) == -1 for k, v in values.items() if k != "axis")


def _constant(node):
    """The number a literal (``-1`` included) denotes, else None."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        inner = _constant(node.operand)
        return None if inner is None else -inner
    if isinstance(node, gast.Constant) and type(node.value) is int:
        return node.value
    return None


def _stored_names(target):
    if isinstance(target, gast.Name):
        return [target.id]
    if isinstance(target, (gast.Tuple, gast.List)):
        return [n for e in target.elts for n in _stored_names(e)]
    if isinstance(target, gast.Starred):
        return _stored_names(target.value)
    return []


def _is_none(node):
    return isinstance(node, gast.Constant) and node.value is None


def _wrt_zeros(node):
    return isinstance(node, gast.Call) and syntax.dotted_name(node.func) == "_sg.wrt_zeros"


def _text(node):
    return syntax.to_source(node).strip()
