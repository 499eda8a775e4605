"""Reverse mode: every statement gives forward statements and adjoint statements.

Before (normalized)::

    def f(x, w):
        _mul = x * w
        y = np.sin(_mul)
        return y

After (forward sweep, then backward sweep; ``dy`` is the output cotangent)::

    _mul = x * w                     dy -> d_mul = dy * np.cos(_mul)
    y = np.sin(_mul)                         dx = _sg.unbroadcast(d_mul * w, x)
                                             dw = _sg.unbroadcast(d_mul * x, w)

Adjoints are tracked symbolically while the backward sweep is built: an adjoint never
written is zero and costs nothing; the first write initializes it; later writes add.
Values the backward sweep needs but the forward sweep overwrites (in loops, or by
reassignment) are pushed on a stack before the overwrite and popped back in reverse;
``optimize.saves`` later drops the pushes whose values the backward sweep never reads.
"""

from __future__ import annotations

import dataclasses
import functools

from srcgrad import syntax
from srcgrad.analysis.activity import analyze_activity
from srcgrad.analysis.arrays import SimpleAssignments, proven_arrays, proven_numbers
from srcgrad.analysis.cfg import CFG
from srcgrad.analysis.dataflow import defined_names
from srcgrad.analysis.namespaces import proven_namespaces
from srcgrad.analysis.scalars import analyze_scalars
from srcgrad.modes.instances import proven_dicts, proven_instances
from srcgrad.modes.reverse_adjoints import AdjointBookkeeping
from srcgrad.modes.reverse_calls import CallExpander
from srcgrad.modes.reverse_common import (
    OWNED,
    SHARED,
    array_attribute_guard,
    is_loop_exit,
    list_growth,
    list_names,
    list_pop,
    sequence_names,
)
from srcgrad.modes.reverse_containers import ContainerAdjoints
from srcgrad.modes.reverse_exceptions import ExceptionAdjoints, prune_markers
from srcgrad.modes.reverse_expressions import ExpressionAdjoints
from srcgrad.modes.reverse_facts import ReverseFacts
from srcgrad.modes.reverse_loops import LoopAdjoints
from srcgrad.modes.reverse_rules import RuleExpander
from srcgrad.rules.methods import ARRAY_ATTRIBUTES, is_array_attribute
from srcgrad.syntax import gast


@dataclasses.dataclass
class ReverseResult:
    forward: list          # forward sweep statements (no return)
    backward: list         # backward sweep statements
    result: object         # the returned atom (gast Name or Constant)
    seed: str              # name of the output cotangent in the backward sweep
    adjoints: dict         # wrt param -> its adjoint name, or None when symbolically zero
    stack: str             # name of the stack of saved values
    callees: list          # user functions called on the differentiated path
    seed_helper: str = "_sg.seed"   # what the fused functions call to seed the output


class ReverseMode(ReverseFacts, ExpressionAdjoints):
    """The facts about one function (its CFG, activity, arrays, containers, scalars)
    and the statement-by-statement transformation. The parts with a job of their own
    are collaborators it holds, each given the mode:

    - ``rules``               a rule-table row expanded at a call (``RuleExpander``)
    - ``calls``               calls of user functions and of values (``CallExpander``)
    - ``bookkeeping``         adding a contribution to an adjoint (``AdjointBookkeeping``)
    - ``container_adjoints``  writes into lists, dicts and items (``ContainerAdjoints``)
    - ``loop_adjoints``       ``for`` and ``while`` loops, forward and reversed
    - ``exception_adjoints``  ``try`` with handlers: adjoints of the statements that completed

    The facts it asks of the function are methods of ``ReverseFacts``
    (``modes.reverse_facts``); the adjoint of one assignment's value, of
    ``ExpressionAdjoints`` (``modes.reverse_expressions``).
    """

    def __init__(self, parsed, node, wrt, namer, callee_names, eager=False,
                 scalar_params=False):
        self.parsed, self.node, self.wrt, self.namer = parsed, node, list(wrt), namer
        self.callee_names = callee_names    # fn -> (forward name, backward name)
        self.params = syntax.param_names(node.args)
        self.cfg = CFG(self.params, node.body)
        self.locals = set(self.params) | {n for nd in self.cfg.nodes for n in nd.defs}
        self._call_infos = {}     # id(call node) -> CallInfo (see call_info)
        self._defining = None     # name -> the CFG nodes assigning it (nodes_defining)
        self._targets = {}        # dotted callee -> what it denotes (see target_of)
        # The body walked once; the analyses below read the kinds of node they look for.
        groups = syntax.by_type([sub for stmt in node.body for sub in syntax.walk(stmt)])
        assigned = SimpleAssignments(groups)
        self.arrays = proven_arrays(assigned, self.params, self.target_of)
        self.namespaces = proven_namespaces(assigned, self.target_of)
        self.instances = proven_instances(parsed, assigned, self.params, self.locals)
        self.proven_dicts = proven_dicts(assigned, self.params)
        self.eager = eager   # Variable reads are differentiable sources
        self.activity = analyze_activity(self.cfg, self.wrt, self.differentiable,
                                         self.reads_variable if eager else None,
                                         self.updated_container)
        self.maybe_defined = defined_names(self.cfg, self.params)
        self.stack = namer.fresh("stack")
        self.rules = RuleExpander(self)
        self.calls = CallExpander(self)
        self.bookkeeping = AdjointBookkeeping(self)
        self.container_adjoints = ContainerAdjoints(self)
        self.loop_adjoints = LoopAdjoints(self)
        self.exception_adjoints = ExceptionAdjoints(self)
        self.callees = []
        self.escapes = []   # errors locating what lets a differentiated value out
        self.loop_depth = 0
        self.local_ids = set()    # statements saved per iteration (see iteration_locals)
        self.primal_live = None
        self.containers = _container_names(groups)
        self.sparse = set()       # adjoints that may hold None slots (see reverse_adjoints)
        self.lists = list_names(node.body, groups) - self.instances
        self.sequences = sequence_names(node.body, self.lists, groups)
        self.list_items_overwritten = any(
            isinstance(n.ctx, gast.Store) and isinstance(n.value, gast.Name)
            and n.value.id in self.lists for n in groups.get(gast.Subscript, ()))
        self.scalars = analyze_scalars(self.cfg, self.params if scalar_params else (),
                                       self.call_gives_scalar)
        self.numbers = proven_numbers(   # cotangents added with +, not item by item
            assigned, self.params if scalar_params else (), self.arrays, self.target_of)

    @functools.cached_property
    def surely_defined(self):
        """Names surely assigned on entry to each CFG node (asked of saves in loops and
        of ``try`` bodies only: solved on first use)."""
        return defined_names(self.cfg, self.params, definitely=True)

    def close(self):
        """Drop the collaborators once the sweeps are made: each holds the mode, a
        reference cycle that only the garbage collector would free, and with it the
        function's tree, its graph and every fact about it (a long function's compile
        then ended in a collection that walked all of them)."""
        for attribute, value in list(vars(self).items()):
            if getattr(value, "mode", None) is self:
                delattr(self, attribute)

    # -- driver --------------------------------------------------------------------------
    def run(self):
        body, ret = self.node.body[:-1], self.node.body[-1]
        forward = self.forward_block(body)
        state = {}
        seed = self.namer.adjoint(ret.value.id) if isinstance(ret.value, gast.Name) else None
        if seed and ret.value.id in self.activity.varied_before[self.cfg.node(ret)]:
            state[ret.value.id] = SHARED
        backward = self.backward_block(body, state)
        if self.exception_adjoints.gates:
            forward = prune_markers(forward, backward)
            forward = [syntax.assign(name, syntax.const(None))
                       for name in sorted(self.exception_adjoints.unbound)] + forward
        adjoints = {p: (self.namer.adjoint(p) if p in state else None) for p in self.wrt}
        return ReverseResult(forward, backward, ret.value,
                             seed or self.namer.fresh("dresult"), adjoints, self.stack,
                             self.callees, "_sg.ones_seed" if self.eager else "_sg.seed")

    def forward_block(self, body):
        out = []
        for stmt in body:
            new = self.forward(stmt)
            syntax.set_line(new, stmt.lineno)
            out.extend(new)
        return out

    def backward_block(self, body, state):
        out = []
        for stmt in reversed(body):
            new = self.backward(stmt, state)
            syntax.set_line(new, stmt.lineno)
            out.extend(new)
        return out

    # -- forward sweep -------------------------------------------------------------------
    def forward(self, stmt):
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0]
            if isinstance(target, gast.Subscript):
                saved = syntax.quote_expr("_sg.saved_item(x, i)", x=target.value,
                                          i=syntax.index_value(target.slice))
                return [self.push(target.value.id, saved, stmt)] + [stmt]
            out = [self.push(target.id, syntax.name(target.id), stmt)] \
                if self.overwrites(stmt, target.id) and id(stmt) not in self.local_ids else []
            if self.varied(stmt, getattr(stmt.value, "value", None)):
                out += array_attribute_guard(stmt.value, self.arrays)
            assigned = self.forward_assign(stmt)
            return out + (assigned if isinstance(assigned, list) else [assigned])
        if isinstance(stmt, gast.If):
            if is_loop_exit(stmt):
                return [stmt]
            return [gast.If(test=stmt.test, body=self.forward_block(stmt.body) or [gast.Pass()],
                            orelse=self.forward_block(stmt.orelse))]
        if isinstance(stmt, (gast.For, gast.While)):
            return self.loop_adjoints.forward_loop(stmt)
        if isinstance(stmt, gast.With):
            return [gast.With(items=[unsuppressed_item(item, stmt) for item in stmt.items],
                              body=self.forward_block(stmt.body) or [gast.Pass()],
                              type_comment=None)]
        if isinstance(stmt, gast.Try) and stmt.handlers:
            return self.exception_adjoints.forward_try(stmt)
        if isinstance(stmt, gast.Try):
            return [gast.Try(body=self.forward_block(stmt.body) or [gast.Pass()], handlers=[],
                             orelse=[], finalbody=self.forward_block(stmt.finalbody))]
        if isinstance(stmt, gast.Expr):
            return self.container_adjoints.forward_bare_call(stmt)
        return [stmt]

    def forward_assign(self, stmt):
        """A call to user code becomes a call of its generated forward function."""
        value = stmt.value
        target = stmt.targets[0].id
        if isinstance(value, gast.Call) and self.is_active(stmt, target):
            info = self.call_info(value)
            if info.kind in ("user", "dynamic"):
                return self.calls.forward(stmt, info, target)
        return stmt

    def overwrites(self, stmt, name):
        return self.maybe_defined.has(self.cfg.node(stmt), name)

    def push(self, var, value, stmt, maybe_undefined=None):
        node = syntax.quote("stack.append(v)", stack=self.stack, v=value)[0]
        node.saved = var
        if maybe_undefined is None:
            node_cfg = self.cfg.by_stmt.get(id(stmt))
            maybe_undefined = node_cfg is not None \
                and not self.surely_defined.has(node_cfg, var) \
                and var not in self.params
        node.maybe_undefined = maybe_undefined
        return node

    def pop(self, var, target=None):
        node = syntax.assign(target if target is not None else var,
                             syntax.quote_expr("stack.pop()", stack=self.stack))
        node.saved = var
        return node

    # -- backward sweep ------------------------------------------------------------------
    def is_active(self, stmt, name):
        return self.activity.is_active_target(self.cfg.node(stmt), name)

    def backward(self, stmt, state):
        gated = self.exception_adjoints.gated(stmt, state)   # in a try body
        if gated is not None:
            return gated
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0]
            if isinstance(target, gast.Subscript):
                return self.container_adjoints.backward_subscript_write(stmt, target, state)
            out = []
            inplace = self.container_adjoints.inplace_call(stmt.value)
            if list_pop(stmt.value, self.instances):   # even without a cotangent: lists aligned
                out += self.container_adjoints.pop_adjoint(stmt, stmt.value, target.id, state)
            elif inplace is not None:
                out += self.container_adjoints.inplace_adjoint(stmt, *inplace, target.id, state)
            elif target.id in state and self.is_active(stmt, target.id):
                if not self.reads_slots(stmt.value):
                    out += self.bookkeeping.densify(target.id, state)
                out += self.adjoint_of(stmt, target.id, stmt.value, state)
            if self.calls.saved_name(stmt) and self.loop_depth > 0:
                out.append(self.pop(self.calls.saved_name(stmt)))
            state.pop(target.id, None)
            if self.overwrites(stmt, target.id) and id(stmt) not in self.local_ids:
                out.append(self.pop(target.id))
            return out
        if isinstance(stmt, gast.If):
            return [] if is_loop_exit(stmt) else self.backward_if(stmt, state)
        if isinstance(stmt, (gast.For, gast.While)):
            return self.loop_adjoints.backward_loop(stmt, state)
        if isinstance(stmt, gast.With):
            # Without an exception a `with` block runs straight through: so does its adjoint.
            return self.backward_block(stmt.body, state)
        if isinstance(stmt, gast.Try) and stmt.handlers:
            return self.exception_adjoints.backward_try(stmt, state)
        if isinstance(stmt, gast.Try):
            return self.backward_block(stmt.finalbody, state) \
                + self.backward_block(stmt.body, state)
        if isinstance(stmt, gast.Expr):
            return self.container_adjoints.backward_bare_call(stmt, state)
        return []

    @staticmethod
    def reads_slots(value):
        """Does the adjoint of ``t = value`` take ``dt`` with its ``None`` slots (another
        name's adjoint, an item or a field of a container's)?"""
        return isinstance(value, (gast.Name, gast.Subscript)) or (
            isinstance(value, gast.Attribute) and value.attr not in ARRAY_ATTRIBUTES)

    def backward_if(self, stmt, state):
        then_state, else_state = dict(state), dict(state)
        then_code = self.backward_block(stmt.body, then_state)
        else_code = self.backward_block(stmt.orelse, else_state)
        for name in sorted(set(then_state) | set(else_state)):
            if name not in then_state:
                then_code += self.bookkeeping.materialize(name, then_state)
            if name not in else_state:
                else_code += self.bookkeeping.materialize(name, else_state)
        state.clear()
        for name in then_state:
            both_owned = then_state[name] == OWNED and else_state[name] == OWNED
            state[name] = OWNED if both_owned else SHARED
        if not then_code and not else_code:
            return []
        if not then_code:
            negated = gast.UnaryOp(op=gast.Not(), operand=syntax.clone(stmt.test))
            return [gast.If(test=negated, body=else_code, orelse=[])]
        return [gast.If(test=stmt.test, body=then_code, orelse=else_code)]


# Runtime functions of generated code that take items of their first argument (a list
# cotangent, in the code a second derivative differentiates).
_ITEM_FUNCTIONS = {"_sg.get_item", "_sg.add_at", "_sg.clear_item", "_sg.item_adjoint"}


def unsuppressed_item(item, stmt):
    """``with cm as v`` -> ``with _sg.unsuppressed(cm, line) as v`` (see that guard)."""
    call = syntax.quote_expr("_sg.unsuppressed(m)", m=item.context_expr)
    call.args.append(syntax.const(stmt.lineno))
    return gast.withitem(context_expr=call, optional_vars=item.optional_vars)


def _container_names(groups):
    """Names whose values may be containers (indexed, iterated, grown, read by field, or
    built as tuple/list/dict literals): their cotangents are added item by item.
    ``groups``: the nodes of the function's body by class (``syntax.by_type``)."""
    bases = [node.value for node in groups.get(gast.Subscript, ())]
    bases += [node.value for node in groups.get(gast.Attribute, ())
              if not is_array_attribute(node.attr)]
    bases += [node.iter for node in groups.get(gast.For, ())]
    for node in groups.get(gast.Call, ()):
        if list_growth(node):
            bases.append(node.func.value)
        elif node.args and syntax.dotted_name(node.func) in _ITEM_FUNCTIONS:
            bases.append(node.args[0])   # generated code (grad of grad)
    bases += [node.targets[0] for node in groups.get(gast.Assign, ())
              if isinstance(node.value, (gast.Tuple, gast.List, gast.Dict))]
    return {base.id for base in bases if isinstance(base, gast.Name)} - {"np", "math"}
