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
from srcgrad.analysis.arrays import SimpleAssignments, proven_arrays
from srcgrad.analysis.escapes import ReadBack
from srcgrad.analysis.namespaces import proven_namespaces
from srcgrad.errors import MissingRuleError
from srcgrad.modes.calls import (
    call_target,
    escape_statement,
)
from srcgrad.modes.forward_calls import LIST_METHODS, ForwardCalls
from srcgrad.modes.forward_control import ForwardControlFlow, _is_loop_exit
from srcgrad.modes.forward_rules import TangentExpander
from srcgrad.modes.forward_state import TangentState
from srcgrad.modes.instances import proven_dicts, proven_instances
from srcgrad.modes.reverse_common import (
    array_attribute_guard,
    concatenates,
    list_names,
    sequence_names,
)
from srcgrad.modes.reverse_rules import RuleExpander
from srcgrad.rules import NONDIFF_ATTRIBUTES, operators
from srcgrad.rules.methods import (
    ARRAY_ATTRIBUTES,
    ARRAY_METHODS,
    NONDIFF_METHODS,
    is_array_attribute,
)
from srcgrad.syntax import gast


@dataclasses.dataclass
class ForwardResult:
    body: list          # primal and tangent statements (no return)
    result: object      # the returned atom
    result_dot: str     # its tangent's name, or None when symbolically zero
    prologue: list      # ``x = None`` for names whose tangent is set before they surely exist


class ForwardMode(ForwardCalls, ForwardControlFlow):
    """The statement-by-statement transformation of one function. Calls are expanded by
    the methods of ``ForwardCalls`` (``modes.forward_calls``), ``if``/``try``/loops by
    those of ``ForwardControlFlow`` (``modes.forward_control``)."""

    def __init__(self, parsed, node, wrt, namer, callee_jvp):
        self.parsed, self.node, self.wrt, self.namer = parsed, node, list(wrt), namer
        self.callee_jvp = callee_jvp   # (fn, wrt tuple) -> (generated name, tangent keywords)
        self.params = syntax.param_names(node.args)
        self.locals = set(self.params) | set(syntax.names_in(node, gast.Store))
        groups = syntax.by_type([sub for stmt in node.body for sub in syntax.walk(stmt)])
        assigned = SimpleAssignments(groups)
        self.arrays = proven_arrays(assigned, self.params,
                                    lambda call: call_target(parsed, call, self.locals))
        self.instances = proven_instances(parsed, assigned, self.params, self.locals)
        self.proven_dicts = proven_dicts(assigned, self.params)
        self.namespaces = proven_namespaces(
            assigned, lambda call: call_target(parsed, call, self.locals))
        self.reverse_rules = RuleExpander(self)
        self.rules = TangentExpander(self)
        self.preinit = set()
        self.escapes = []   # errors locating what lets a differentiated value out
        self.lists = list_names(node.body, groups) - self.instances
        self.sequences = sequence_names(node.body, self.lists, groups)
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
                and self.list_receiver(func.value) \
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
            return self.rule_tangent(stmt, type(value.op), [value.left, value.right], value,
                                     target, state)
        if isinstance(value, gast.UnaryOp):
            if isinstance(value.op, operators.NONDIFF_UNARY):
                return None
            if isinstance(value.op, gast.UAdd):
                return syntax.name(self.tangent(value.operand.id))
            return self.rule_tangent(stmt, type(value.op), [value.operand], value, target,
                                     state)
        if isinstance(value, gast.Call):
            return self.call_tangent(stmt, target, value, state)
        raise self.parsed.error("forward mode does not support this expression on values "
                                "being differentiated", stmt)

    def rule_tangent(self, stmt, op_type, args, value, target, state):
        """The tangent of an operator (``op_type``: a gast operator class)."""
        from srcgrad.modes.calls import CallInfo

        rule = operators.operator_rule(op_type)
        func = operators.BINARY.get(op_type) or operators.UNARY[op_type]
        info = CallInfo("rule", rule.name, func, rule, list(args), [])
        return self.rules.expand(stmt, info, value, target, state)

    def attribute_tangent(self, stmt, value, state):
        if value.attr in NONDIFF_ATTRIBUTES or value.value.id not in state:
            return None
        template = ARRAY_ATTRIBUTES.get(value.attr)
        if template is None and (value.attr in ARRAY_METHODS or value.attr in NONDIFF_METHODS):
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
                and self.list_receiver(func.value):
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
            guard = info.rule.tangent_guard   # (param, statement run when it carries one)
            guarded = guard is not None and self.carries(values[guard[0]], state)
            if self.rules.linear(call, info, values, linear, state) is None \
                    and not guarded:
                return [stmt]
            target = info.args[0].id
            out = self.own(target, state)
            update = self.rules.linear(call, info, values, linear, state)
            body = [stmt] + out + ([gast.Expr(value=update)] if update is not None else [])
            if guarded:
                dots = {f"{guard[0]}_dot": self.tangent_or_zero(values[guard[0]], state),
                        "v_dot": syntax.name(self.tangent(target))}
                body += syntax.quote(guard[1], **values, **dots)
            return body
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
