"""Forward mode: every statement gives its tangent statements, right after it.

Before (normalized, ``wrt=x``)::

    def f(x, w):
        _mul = x * w
        y = np.sin(_mul)
        return y

After (``x_dot`` is the input tangent)::

    _mul = x * w
    _mul_dot = x_dot * w
    y = np.sin(_mul)
    y_dot = _mul_dot * np.cos(_mul)

Tangents are tracked symbolically while the code is built: a name whose tangent was never
set has a zero tangent and costs nothing; where control flow joins, a branch that left a
tangent unset sets it to zeros. Loops are walked until the set of names with tangents is
stable at the top of the body. Calls to other user functions call their own generated
``jvp`` functions; list operations (``append``/``pop``) and in-place helpers are mirrored
on the tangent containers, so generated gradient code is itself transformable.
"""

from __future__ import annotations

import collections
import dataclasses
import functools

from srcgrad import syntax
from srcgrad.analysis.arrays import proven_arrays
from srcgrad.analysis.escapes import ReadBack
from srcgrad.errors import MissingRuleError
from srcgrad.frontend.freshness import own_signature
from srcgrad.modes.calls import (
    call_target,
    classify_call,
    escape_statement,
    generated_variant,
    guard_escaping_callee,
    user_class_refusal,
)
from srcgrad.modes.forward_rules import TangentExpander
from srcgrad.modes.forward_state import TangentState
from srcgrad.modes.reverse_common import (
    UNLOWERED,
    array_attribute_guard,
    concatenates,
    list_names,
    sequence_names,
    unlowered_handler,
)
from srcgrad.modes.reverse_containers import bind_fields
from srcgrad.modes.reverse_rules import RuleExpander
from srcgrad.rules import NONDIFF_ATTRIBUTES, REGISTRY, operators
from srcgrad.rules.methods import ARRAY_ATTRIBUTES, ARRAY_METHODS, is_array_attribute
from srcgrad.syntax import gast

LIST_METHODS = {"append", "extend", "insert", "pop", "reverse"}


@dataclasses.dataclass
class ForwardResult:
    body: list          # primal and tangent statements (no return)
    result: object      # the returned atom
    result_dot: str     # its tangent's name, or None when symbolically zero
    prologue: list      # ``x = None`` for names whose tangent is set before they surely exist


class ForwardMode:
    def __init__(self, parsed, node, wrt, namer, callee_jvp):
        self.parsed, self.node, self.wrt, self.namer = parsed, node, list(wrt), namer
        self.callee_jvp = callee_jvp   # (fn, wrt tuple) -> (generated name, tangent keywords)
        self.params = syntax.param_names(node.args)
        self.locals = set(self.params) | set(syntax.names_in(node, gast.Store))
        self.arrays = proven_arrays(node.body, self.params,
                                    lambda call: call_target(parsed, call, self.locals))
        self.reverse_rules = RuleExpander(self)
        self.rules = TangentExpander(self)
        self.preinit = set()
        self.escapes = []   # errors locating what lets a differentiated value out
        self.lists = list_names(node.body)
        self.sequences = sequence_names(node.body, self.lists)
        self.dicts = {n.targets[0].id for n in gast.walk(node) if isinstance(n, gast.Assign)
                      and isinstance(n.value, gast.Dict) and isinstance(n.targets[0], gast.Name)}
        self.writes_in_place = _writes_in_place(node)

    def tangent(self, name):
        return self.namer.tangent(name)

    def tangent_or_zero(self, atom, state):
        if isinstance(atom, gast.Name) and atom.id in state:
            return syntax.name(self.tangent(atom.id))
        return syntax.quote_expr("_sg.zeros_like(x)", x=atom)

    # -- driver --------------------------------------------------------------------------
    def run(self):
        body, ret = self.node.body[:-1], self.node.body[-1]
        state = TangentState({p: False for p in self.wrt}, self.params)
        code = self.block(body, state)
        result = ret.value
        result_dot = self.tangent(result.id) if isinstance(result, gast.Name) \
            and result.id in state else None
        prologue = [syntax.assign(n, syntax.const(None)) for n in sorted(self.preinit)]
        return ForwardResult(code, result, result_dot, prologue)

    def block(self, body, state):
        out = []
        for stmt in body:
            new = self.statement(stmt, state)
            syntax.set_line(new, stmt.lineno)
            out.extend(new)
        return out

    def statement(self, stmt, state):
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0]
            if isinstance(target, gast.Subscript):
                return self.subscript_write(stmt, target, state)
            out = self.assign(stmt, target.id, stmt.value, state)
            if getattr(getattr(stmt.value, "value", None), "id", None) in state:
                out = array_attribute_guard(stmt.value, self.arrays) + out
            state.defined.add(target.id)
            return out
        if isinstance(stmt, gast.If):
            return [stmt] if _is_loop_exit(stmt) else self.branch(stmt, state)
        if isinstance(stmt, (gast.For, gast.While)):
            return self.loop(stmt, state)
        if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call):
            before = self.zero_list_tangent(stmt.value, state)
            return before + self.bare_call(stmt, stmt.value, state)
        if isinstance(stmt, gast.With):
            return [gast.With(items=stmt.items, body=self.block(stmt.body, state) or [gast.Pass()],
                              type_comment=None)]
        if isinstance(stmt, gast.Try):
            return self.guarded(stmt, state)
        return [stmt]

    def zero_list_tangent(self, call, state):
        """``lst.append(x)`` where only ``x`` has a tangent: ``lst``'s zero tangent is made
        before the call changes ``lst`` (after it, it would have one item too many)."""
        func = call.func
        if isinstance(func, gast.Attribute) and func.attr in LIST_METHODS \
                and isinstance(func.value, gast.Name) and func.value.id in self.locals \
                and func.value.id not in state and self.carries(call, state):
            return self.materialize(func.value.id, state)
        return []

    # -- assignments ---------------------------------------------------------------------
    def assign(self, stmt, target, value, state):
        if isinstance(value, gast.Call) and self.carries(value, state):
            info = self.call_info(value)
            if info.kind == "user":
                return self.user_call(stmt, info, target, value, state)
            if info.kind == "dynamic":
                return self.dynamic_call(stmt, info, target, value, state)
        tangent = self.tangent_value(stmt, target, value, state)
        state.tangents.pop(target, None)
        if tangent is None:
            return [stmt]
        expr, shares = tangent
        state.tangents[target] = shares
        return [stmt, syntax.assign(self.tangent(target), expr)]

    def carries(self, value, state):
        return any(n in state for n in syntax.loaded_names(value))

    def tangent_value(self, stmt, target, value, state):
        """``(tangent expression, shares a buffer)`` for ``target = value``, or None."""
        if not self.carries(value, state):
            return None
        if isinstance(value, gast.Name):
            return syntax.name(self.tangent(value.id)), state.tangents[value.id]
        if isinstance(value, (gast.Compare, gast.BoolOp, gast.JoinedStr)):
            return None
        if isinstance(value, gast.Subscript):
            if value.value.id not in state:
                return None
            dot = gast.Subscript(value=syntax.name(self.tangent(value.value.id)),
                                 slice=value.slice, ctx=gast.Load())
            if value.value.id in self.dicts:   # a dict's zero tangent is sparse (empty)
                dot = syntax.quote_expr("_sg.get_item(d, k, v)", d=dot.value, v=target,
                                        k=syntax.index_value(value.slice))
            return dot, state.tangents[value.value.id]
        if isinstance(value, (gast.Tuple, gast.List)):
            elts = [self.tangent_or_zero(e, state) for e in value.elts]
            return type(value)(elts=elts, ctx=gast.Load()), False
        if isinstance(value, gast.Dict):
            values = [self.tangent_or_zero(v, state) for v in value.values]
            return gast.Dict(keys=[syntax.clone(k) for k in value.keys], values=values), False
        if isinstance(value, gast.Attribute):
            return self.attribute_tangent(stmt, value, state)
        expr = self.operation_tangent(stmt, target, value, state)
        if expr is None:
            return None
        if self.writes_in_place and _may_be_operand_buffer(expr):
            # An identity tangent (``x - c``, or ``c + x`` whose tangent is ``x_dot``
            # broadcast only when shapes differ) is its operand's buffer, maybe a view of
            # an array written in place later while this primal is a new array: a copy.
            return syntax.quote_expr("_sg.snapshot(d)", d=expr), False
        return expr, isinstance(expr, gast.Name)

    def operation_tangent(self, stmt, target, value, state):
        if isinstance(value, gast.BinOp) and concatenates(value, self.lists):
            return gast.BinOp(left=self.tangent_or_zero(value.left, state), op=gast.Add(),
                              right=self.tangent_or_zero(value.right, state))
        if isinstance(value, gast.BinOp) and concatenates(value, self.sequences):
            return syntax.quote_expr("_sg.concat_tangents(a, b)",
                                     a=self.tangent_or_zero(value.left, state),
                                     b=self.tangent_or_zero(value.right, state))
        if isinstance(value, gast.BinOp):
            if isinstance(value.op, operators.NONDIFF_BINARY):
                return None
            return self.rule_tangent(stmt, operators.BINARY[type(value.op)],
                                     [value.left, value.right], value, target, state)
        if isinstance(value, gast.UnaryOp):
            if isinstance(value.op, operators.NONDIFF_UNARY):
                return None
            if isinstance(value.op, gast.UAdd):
                return syntax.name(self.tangent(value.operand.id))
            return self.rule_tangent(stmt, operators.UNARY[type(value.op)], [value.operand],
                                     value, target, state)
        if isinstance(value, gast.Call):
            return self.call_tangent(stmt, target, value, state)
        raise self.parsed.error("forward mode does not support this expression on values "
                                "being differentiated", stmt)

    def rule_tangent(self, stmt, func, args, value, target, state):
        from srcgrad.modes.calls import CallInfo

        rule = REGISTRY.lookup(func)
        info = CallInfo("rule", rule.name, func, rule, list(args), [])
        return self.rules.expand(stmt, info, value, target, state)

    def attribute_tangent(self, stmt, value, state):
        if value.attr in NONDIFF_ATTRIBUTES or value.value.id not in state:
            return None
        template = ARRAY_ATTRIBUTES.get(value.attr)
        if template is None and value.attr in ARRAY_METHODS:
            # ``x.sum`` as a value (generated code passes it to ``_sg.dynamic_forward``):
            # a bound method carries its object's tangent (see srcgrad.compiler.dispatch)
            return syntax.name(self.tangent(value.value.id)), state.tangents[value.value.id]
        if template is None and not is_array_attribute(value.attr):
            # A field of a NamedTuple / dataclass: its tangent is the tangent's field.
            return syntax.quote_expr("_sg.field_tangent(x, x_dot, name)", x=value.value,
                                     x_dot=self.tangent(value.value.id),
                                     name=syntax.const(value.attr)), False
        if template is None:
            raise self.parsed.error(f"the attribute `.{value.attr}` of a value being "
                                    "differentiated is not supported yet", stmt, MissingRuleError)
        dot = syntax.name(self.tangent(value.value.id))
        return syntax.quote_expr(template, g=dot), state.tangents[value.value.id]

    def call_info(self, call):
        info = classify_call(self.parsed, call, self.locals, self.arrays)
        specialized = generated_variant(info.target)
        if specialized is not None:
            info = dataclasses.replace(info, kind="user", target=specialized)
        return info

    def call_tangent(self, stmt, target, call, state):
        func = call.func
        if isinstance(func, gast.Attribute) and func.attr in LIST_METHODS \
                and isinstance(func.value, gast.Name) and func.value.id in self.locals:
            if func.value.id not in state:
                return None
            return self.mirrored_call(call, state)
        info = self.call_info(call)
        if info.kind == "nondiff":
            return None
        if info.kind == "rule":
            return self.rules.expand(stmt, info, call, target, state)
        if info.kind == "structure":
            return self.structure_tangent(stmt, info, call, state)
        refusal = user_class_refusal(info)
        if refusal is not None:
            raise self.parsed.error(refusal, stmt, MissingRuleError)
        raise self.parsed.error(
            f"no derivative rule for `{info.name}`, which is called on values being "
            f"differentiated. Register one, e.g.\n"
            f"    srcgrad.defrule({info.name}, 'x', x='g * <partial derivative>', "
            f"tangent={{'x': 'x_dot * <partial derivative>'}})\n"
            f"or wrap it with srcgrad.custom_jvp", stmt, MissingRuleError)

    def structure_tangent(self, stmt, info, call, state):
        """``Point(a, y=b)`` -> ``Point(a_dot, y=b_dot)`` (zeros for constant fields)."""
        bind_fields(self.parsed, stmt, info)   # refuses *args / **kwargs
        new = syntax.clone(call)
        new.args = [self.tangent_or_zero(a, state) for a in call.args]
        for keyword in new.keywords:
            keyword.value = self.tangent_or_zero(keyword.value, state)
        return new

    def mirrored_call(self, call, state):
        """``base.method(args)`` on the tangents: ``base_dot.method(args_dot)``."""
        new = syntax.clone(call)
        new.func.value = syntax.name(self.tangent(call.func.value.id))
        if call.func.attr in ("append", "extend"):
            new.args = [self.tangent_or_zero(a, state) for a in call.args]
        elif call.func.attr == "insert":
            new.args = [call.args[0]] + [self.tangent_or_zero(a, state) for a in call.args[1:]]
        return new

    def user_call(self, stmt, info, target, call, state):
        """``y = g(a, b)`` -> ``y, y_dot = g_jvp(a, b, a_dot=...)``."""

        params = list(own_signature(info.target).parameters)
        bound = self.reverse_rules.bind_user_call(stmt, info, params)
        wrt = tuple(p for p in params if p in bound and self.carries(bound[p], state))
        name, keywords = self.callee_jvp(info.target, wrt)
        kept = getattr(self.callee_jvp, "escaping", {}).get(info.target)
        before, after = guard_escaping_callee(
            self.parsed, stmt, info.name, kept, self.read_back(state), self.escapes,
            self.namer) if kept else ([], [])
        new = syntax.clone(call)
        new.func = syntax.name(name)
        new.keywords = list(new.keywords) + [
            gast.keyword(arg=keywords[p], value=self.bound_tangent(bound[p], state))
            for p in wrt]
        state.tangents.pop(target, None)
        state.tangents[target] = False
        targets = syntax.tuple_of([syntax.name(target, True),
                                   syntax.name(self.tangent(target), True)], store=True)
        return before + [syntax.assign(targets, new)] + after

    def bound_tangent(self, atoms, state):
        """The tangent of a callee's parameter: of one atom, or a tuple (its ``*args``) or
        dict (its ``**kwargs``) of them."""
        if isinstance(atoms, gast.Tuple):
            return syntax.tuple_of([self.tangent_or_zero(a, state) for a in atoms.elts])
        if isinstance(atoms, gast.Dict):
            return gast.Dict(keys=[syntax.clone(k) for k in atoms.keys],
                             values=[self.tangent_or_zero(v, state) for v in atoms.values])
        return syntax.name(self.tangent(atoms.id))

    def dynamic_call(self, stmt, info, target, call, state):
        """``y = fn(a, b)`` with ``fn`` known when it runs -> ``y, y_dot =
        _sg.dynamic_jvp(fn, owner_dot, (a, b), (a_dot, None))`` (see srcgrad.compiler.dispatch)."""
        owner = info.owner
        owner_dot = syntax.name(self.tangent(owner.id)) if isinstance(owner, gast.Name) \
            and owner.id in state else syntax.const(None)
        tangents = [self.argument_tangent(a, state) for a in call.args]
        args = [call.func, owner_dot, syntax.tuple_of(list(call.args)),
                syntax.tuple_of(tangents)]
        if any(self.carries(kw.value, state) for kw in call.keywords):
            # f(x, b=y, **kw): the keywords and their tangents as two dicts
            keys = [None if kw.arg is None else syntax.const(kw.arg) for kw in call.keywords]
            dots = [self.keyword_tangent(kw, state) for kw in call.keywords]
            new = gast.Call(func=syntax.quote_expr("_sg.dynamic_jvp_keywords"),
                            args=args + [gast.Dict(keys=keys, values=[kw.value for kw in
                                                                      call.keywords]),
                                         gast.Dict(keys=list(keys), values=dots)],
                            keywords=[])
        else:
            new = gast.Call(func=syntax.quote_expr("_sg.dynamic_jvp"), args=args,
                            keywords=call.keywords)
        state.tangents.pop(target, None)
        state.tangents[target] = False
        targets = syntax.tuple_of([syntax.name(target, True),
                                   syntax.name(self.tangent(target), True)], store=True)
        return [syntax.assign(targets, new)]

    def keyword_tangent(self, kw, state):
        """The tangent passed for one keyword of a dynamic call: ``**kw`` passes a dict
        of them (``_sg.keyword_tangents``)."""
        if kw.arg is None:
            dot = syntax.name(self.tangent(kw.value.id)) if kw.value.id in state \
                else syntax.const(None)
            return syntax.quote_expr("_sg.keyword_tangents(d, kw)", d=dot, kw=kw.value)
        return self.argument_tangent(kw.value, state)

    def argument_tangent(self, arg, state):
        """The tangent passed for one argument of a dynamic call (None: it has none);
        ``*xs`` passes one per item (``_sg.item_tangents``)."""
        if isinstance(arg, gast.Starred):
            dot = syntax.name(self.tangent(arg.value.id)) if arg.value.id in state \
                else syntax.const(None)
            return gast.Starred(value=syntax.quote_expr("_sg.item_tangents(d, xs)", d=dot,
                                                        xs=arg.value), ctx=gast.Load())
        if isinstance(arg, gast.Name) and arg.id in state:
            return syntax.name(self.tangent(arg.id))
        return syntax.const(None)

    # -- writes into containers ----------------------------------------------------------
    def subscript_write(self, stmt, target, state):
        base, value = target.value.id, stmt.value
        if base not in state and not self.carries(value, state):
            return [stmt]
        out = self.own(base, state)
        dot = gast.Subscript(value=syntax.name(self.tangent(base)), slice=target.slice,
                             ctx=gast.Store())
        stored = syntax.quote_expr("_sg.stored_derivative(v, x)",   # integer arrays: zero
                                   v=self.tangent_or_zero(value, state), x=base)
        return out + [stmt, syntax.assign(dot, stored)]

    def bare_call(self, stmt, call, state):
        """The statement (or what runs in its place) and its tangent updates."""
        func = call.func
        if isinstance(func, gast.Attribute) and func.attr in LIST_METHODS \
                and isinstance(func.value, gast.Name) and func.value.id in self.locals:
            base = func.value.id
            if base not in state and not self.carries(call, state):
                return [stmt]
            out = self.own(base, state)
            return [stmt] + out + [gast.Expr(value=self.mirrored_call(call, state))]
        if not self.carries(call, state):
            return [stmt]
        info = self.call_info(call)
        if info.kind == "rule" and getattr(info.rule, "inplace", False):
            linear = info.rule.linear_in or tuple(info.rule.adjoints)
            values = self.reverse_rules.bind(stmt, info.rule, info.args, info.keywords)
            if self.rules.linear(call, info, values, linear, state) is None:
                return [stmt]
            out = self.own(info.args[0].id, state)
            update = self.rules.linear(call, info, values, linear, state)
            return [stmt] + out + [gast.Expr(value=update)]
        if info.kind in ("nondiff", "rule"):
            return [stmt]
        return self.escape(stmt, info, state)   # as the reverse mode does

    def escape(self, stmt, info, state):
        """See ``calls.escape_statement``. A later statement's operand counts as carrying
        a tangent if it does here and is bound only once (it is passed read-only)."""
        return escape_statement(self.parsed, info, stmt,
                                lambda atom: self.carries(atom, state),
                                self.read_back(state), self.escapes)

    def read_back(self, state):
        once = {n for n in state.tangents if self._bindings.get(n, 0) <= 1}
        return ReadBack(self.parsed, self.node, self.locals, self.call_info,
                        lambda _, atom: isinstance(atom, gast.Name) and atom.id in once)

    @functools.cached_property
    def _bindings(self):
        counts = collections.Counter(syntax.names_in(self.node, gast.Store))
        counts.update(self.params)
        return counts

    def own(self, name, state):
        """Make ``name``'s tangent a buffer that an in-place write may change."""
        if name not in state:
            return self.materialize(name, state)
        if state.tangents[name]:
            state.tangents[name] = False
            return syntax.quote("d = _sg.snapshot(d)", d=self.tangent(name))
        return []

    def materialize(self, name, state):
        if name not in state.defined and name not in self.params:
            self.preinit.add(name)
        state.tangents[name] = False
        return syntax.quote("d = _sg.zeros_like(x)", d=self.tangent(name), x=name)

    # -- control flow --------------------------------------------------------------------
    def branch(self, stmt, state):
        then_state, else_state = state.copy(), state.copy()
        then_code = self.block(stmt.body, then_state)
        else_code = self.block(stmt.orelse, else_state)
        for name in sorted(set(then_state.tangents) | set(else_state.tangents)):
            if name not in then_state:
                then_code += self.materialize(name, then_state)
            if name not in else_state:
                else_code += self.materialize(name, else_state)
        state.join(then_state, else_state)
        return [gast.If(test=stmt.test, body=then_code or [gast.Pass()], orelse=else_code)]

    def guarded(self, stmt, state):
        """``try``: each tangent is computed next to its primal statement, so the part of
        the body an exception lets run has its tangents. With handlers, the names the body
        gives a tangent get a zero one first (what they keep if the body stops before
        them), and after the ``try`` either path's state may hold."""
        left = unlowered_handler(stmt)
        if left is not None:
            raise self.parsed.error(UNLOWERED, left)
        body_state = state.copy()
        body = self.block(stmt.body, body_state) or [gast.Pass()]
        before = []
        if stmt.handlers:
            for name in sorted(set(body_state.tangents) - set(state.tangents)):
                before += self.materialize(name, state)
            state.join(body_state, state.copy())
        else:
            state.tangents, state.defined = body_state.tangents, body_state.defined
        final = self.block(stmt.finalbody, state)
        return before + [gast.Try(body=body, handlers=stmt.handlers, orelse=[], finalbody=final)]

    def loop(self, stmt, state):
        body = stmt.body[:-1] if stmt.body and _is_loop_exit(stmt.body[-1]) else stmt.body
        before = []
        for _ in range(8):   # until the names with tangents are stable at the loop's top
            trial = state.copy()
            self.loop_body(stmt, body, trial)
            new = [n for n in trial.tangents if n not in state]
            if not new:
                break
            for name in sorted(new):
                before += self.materialize(name, state)
        entry = state.copy()
        code = self.loop_body(stmt, body, state)
        for name in sorted(entry.tangents):
            if name not in state:
                code += self.materialize(name, state)
        state.join(entry, state)
        state.defined = entry.defined
        if body is not stmt.body:
            code.append(stmt.body[-1])
        loop = syntax.clone(stmt)
        loop.body = code or [gast.Pass()]
        if _iterates_tangent(stmt, entry):
            loop.target = syntax.tuple_of([syntax.name(stmt.target.id, True), syntax.name(
                self.tangent(stmt.target.id), True)], store=True)
            loop.iter = syntax.quote_expr("_sg.tangent_pairs(xs, xs_dot)", xs=stmt.iter,
                                          xs_dot=self.tangent(stmt.iter.id))
        return before + [loop]

    def loop_body(self, stmt, body, state):
        if isinstance(stmt, gast.For):
            target = stmt.target.id
            state.tangents.pop(target, None)
            if _iterates_tangent(stmt, state):
                state.tangents[target] = False
            state.defined.add(target)
        return self.block(body, state)


def _may_be_operand_buffer(expr):
    """Is the tangent ``expr`` an operand's tangent itself (a name, or
    ``_sg.broadcast_tangent(x_dot, ans)``, which returns ``x_dot`` when no broadcast is
    needed)?"""
    if isinstance(expr, gast.Name):
        return True
    return isinstance(expr, gast.Call) and isinstance(expr.func, gast.Attribute) \
        and expr.func.attr == "broadcast_tangent" and isinstance(expr.args[0], gast.Name)


def _writes_in_place(node):
    """Does the function write into an array or container (``x[i] = v``, ``out=``, a
    bare call such as ``lst.append(v)``)?"""
    for n in gast.walk(node):
        if isinstance(n, gast.Subscript) and isinstance(n.ctx, gast.Store):
            return True
        if isinstance(n, gast.Expr) and isinstance(n.value, gast.Call):
            return True
        if isinstance(n, gast.keyword) and n.arg == "out":
            return True
    return False


def _iterates_tangent(stmt, state):
    """Does a ``for`` loop walk over a value that has a tangent?"""
    return isinstance(stmt, gast.For) and isinstance(stmt.iter, gast.Name) \
        and stmt.iter.id in state


def _is_loop_exit(stmt):
    return (isinstance(stmt, gast.If) and len(stmt.body) == 1
            and isinstance(stmt.body[0], gast.Break) and not stmt.orelse)
