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

from srcgrad import syntax
from srcgrad.analysis.activity import analyze_activity
from srcgrad.analysis.cfg import CFG
from srcgrad.analysis.dataflow import defined_names
from srcgrad.analysis.scalars import analyze_scalars
from srcgrad.errors import MissingRuleError
from srcgrad.modes.calls import classify_call, generated_variant, is_array_attribute
from srcgrad.modes.reverse_calls import CallExpander
from srcgrad.modes.reverse_rules import RuleExpander
from srcgrad.rules import NONDIFF_ATTRIBUTES, operators
from srcgrad.rules.methods import ARRAY_ATTRIBUTES
from srcgrad.syntax import gast

OWNED, SHARED = "owned", "shared"  # a nonzero adjoint's buffer: ours to mutate, or not


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


class ReverseMode:
    def __init__(self, parsed, node, wrt, namer, callee_names, eager=False,
                 scalar_params=False):
        self.parsed, self.node, self.wrt, self.namer = parsed, node, list(wrt), namer
        self.callee_names = callee_names    # fn -> (forward name, backward name)
        self.params = syntax.param_names(node.args)
        self.cfg = CFG(self.params, node.body)
        self.locals = set(self.params) | {n for nd in self.cfg.nodes for n in nd.defs}
        self.eager = eager   # Variable reads are differentiable sources
        self.activity = analyze_activity(self.cfg, self.wrt, self.differentiable,
                                         self.reads_variable if eager else None,
                                         self.updated_container)
        self.maybe_defined = defined_names(self.cfg, self.params)
        self.surely_defined = defined_names(self.cfg, self.params, definitely=True)
        self.stack = namer.fresh("stack")
        self.rules = RuleExpander(self)
        self.callees = []
        self.loop_depth = 0
        self.preinit = []
        self.calls = CallExpander(self)
        self.containers = _container_names(node.body, self.params)
        self.scalars = analyze_scalars(self.cfg, self.params if scalar_params else (),
                                       self.call_gives_scalar)

    # -- facts ---------------------------------------------------------------------------
    def differentiable(self, stmt):
        """Does ``stmt``'s result carry a derivative from its operands?"""
        if isinstance(stmt, gast.For):
            return not _is_range(stmt.iter)
        value = stmt.value
        if isinstance(value, (gast.Constant, gast.Compare, gast.JoinedStr)):
            return False
        if isinstance(value, gast.BinOp):
            return not isinstance(value.op, operators.NONDIFF_BINARY)
        if isinstance(value, gast.UnaryOp):
            return not isinstance(value.op, operators.NONDIFF_UNARY)
        if isinstance(value, gast.Attribute):
            return value.attr not in NONDIFF_ATTRIBUTES
        if isinstance(value, gast.Call):
            return self.call_info(value).kind != "nondiff"
        return True

    def updated_container(self, stmt):
        """The local a bare call to an in-place helper row updates, or None."""
        if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call):
            info = self.call_info(stmt.value)
            if info.kind == "rule" and info.rule.inplace and info.args \
                    and isinstance(info.args[0], gast.Name):
                return info.args[0].id
        return None

    def call_info(self, call):
        info = classify_call(self.parsed, call, self.locals)
        specialized = generated_variant(info.target)
        if info.kind == "unknown" and specialized is not None:
            info = dataclasses.replace(info, kind="user", target=specialized)
        return info

    def call_gives_scalar(self, call, is_scalar_atom):
        """Does this call surely return a scalar (given which atoms are scalars)?"""
        info = self.call_info(call)
        module = getattr(info.target, "__module__", None)
        if info.name in ("len", "builtins.len") or module == "math":
            return True
        scalar_args = all(is_scalar_atom(a) for a in call.args) and not call.keywords
        elementwise = info.kind == "rule" and info.rule.elementwise
        return scalar_args and (elementwise or info.name in ("int", "float", "round", "abs"))

    def is_scalar(self, stmt, atom):
        """Is ``atom`` surely a scalar (shape ``()``) just before ``stmt``?"""
        if isinstance(atom, gast.Constant):
            return type(atom.value) in (int, float, bool)
        return isinstance(atom, gast.Name) and atom.id in self.scalars[self.cfg.node(stmt)]

    def varied(self, stmt, atom):
        return isinstance(atom, gast.Name) and self.activity.is_varied_operand(
            self.cfg.node(stmt), atom.id)

    # -- driver --------------------------------------------------------------------------
    def run(self):
        body, ret = self.node.body[:-1], self.node.body[-1]
        forward = self.forward_block(body)
        state = {}
        seed = self.namer.adjoint(ret.value.id) if isinstance(ret.value, gast.Name) else None
        if seed and ret.value.id in self.activity.varied_before[self.cfg.node(ret)]:
            state[ret.value.id] = SHARED
        backward = self.backward_block(body, state)
        adjoints = {p: (self.namer.adjoint(p) if p in state else None) for p in self.wrt}
        return ReverseResult(self.preinit + forward, backward, ret.value,
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
                if self.overwrites(stmt, target.id) else []
            assigned = self.forward_assign(stmt)
            return out + (assigned if isinstance(assigned, list) else [assigned])
        if isinstance(stmt, gast.If):
            if _is_loop_exit(stmt):
                return [stmt]
            return [gast.If(test=stmt.test, body=self.forward_block(stmt.body) or [gast.Pass()],
                            orelse=self.forward_block(stmt.orelse))]
        if isinstance(stmt, (gast.For, gast.While)):
            return self.forward_loop(stmt)
        if isinstance(stmt, gast.With):
            return [gast.With(items=stmt.items, body=self.forward_block(stmt.body) or [gast.Pass()],
                              type_comment=None)]
        if isinstance(stmt, gast.Try):
            return [gast.Try(body=self.forward_block(stmt.body) or [gast.Pass()], handlers=[],
                             orelse=[], finalbody=self.forward_block(stmt.finalbody))]
        if isinstance(stmt, gast.Expr):
            return self.forward_bare_call(stmt)
        return [stmt]

    def forward_bare_call(self, stmt):
        """A bare call to an in-place helper that overwrites an item (``definplace`` with
        ``saves``) saves the item first, as ``x[i] = v`` does, for the backward sweep to
        restore."""
        inplace = self.inplace_call(stmt.value)
        if inplace is None or inplace[0].saves is None:
            return [stmt]
        rule, values = inplace
        base = values[rule.params[0]]
        saved = syntax.quote_expr("_sg.saved_item(x, i)", x=base, i=values[rule.saves])
        return [self.push(base.id, saved, stmt), stmt]

    def forward_assign(self, stmt):
        """A call to user code becomes a call of its generated forward function."""
        value = stmt.value
        target = stmt.targets[0].id
        if isinstance(value, gast.Call) and self.is_active(stmt, target):
            info = self.call_info(value)
            if info.kind in ("user", "dynamic"):
                return self.calls.forward(stmt, info, target)
        return stmt

    def forward_loop(self, stmt):
        counter = self.loop_counter(stmt)
        self.loop_depth += 1
        body = self.forward_block(stmt.body)
        self.loop_depth -= 1
        exit_check = body.pop() if body and _is_loop_exit(body[-1]) else None
        before = []
        if counter:
            if self.loop_depth > 0:
                before.append(self.push(counter, syntax.name(counter), stmt, maybe_undefined=True))
            before += syntax.quote("n = 0", n=counter)
            body = syntax.quote("n += 1", n=counter) + body
        if isinstance(stmt, gast.For) and not _is_range(stmt.iter):
            target = stmt.target.id
            if self.target_defined_outside(stmt):
                before.append(self.push(target, syntax.name(target), stmt))
            body.append(self.push(target, syntax.name(target), stmt))
        if exit_check:
            body.append(exit_check)
        loop = syntax.clone(stmt) if isinstance(stmt, gast.While) else gast.For(
            target=stmt.target, iter=stmt.iter, body=[], orelse=[], type_comment=None)
        loop.body = body
        return before + [loop]

    def loop_counter(self, stmt):
        """Name of the iteration counter a loop needs in the backward sweep, or None."""
        if isinstance(stmt, gast.For) and _is_range(stmt.iter) and not _has_exit(stmt):
            return None
        if not hasattr(stmt, "_srcgrad_counter"):
            stmt._srcgrad_counter = self.namer.fresh("n_iterations")
        return stmt._srcgrad_counter

    def target_defined_outside(self, stmt):
        target = stmt.target.id
        inside = {n.id for n in gast.walk(stmt) if isinstance(n, gast.Name)
                  and isinstance(n.ctx, gast.Store)}
        outside = {nd for nd in self.cfg.nodes if target in nd.defs}
        inside_nodes = {self.cfg.by_stmt.get(id(s)) for s in gast.walk(stmt)}
        return target in self.params or bool(outside - inside_nodes) or target not in inside

    def overwrites(self, stmt, name):
        return name in self.maybe_defined[self.cfg.node(stmt)]

    def push(self, var, value, stmt, maybe_undefined=None):
        node = syntax.quote("stack.append(v)", stack=self.stack, v=value)[0]
        node.saved = var
        if maybe_undefined is None:
            node_cfg = self.cfg.by_stmt.get(id(stmt))
            maybe_undefined = node_cfg is not None and var not in self.surely_defined[node_cfg] \
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
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0]
            if isinstance(target, gast.Subscript):
                return self.backward_subscript_write(stmt, target, state)
            out = []
            inplace = self.inplace_call(stmt.value)
            if _list_pop(stmt.value):   # even without a cotangent: keeps lists aligned
                out += self.pop_adjoint(stmt, stmt.value, target.id, state)
            elif inplace is not None:
                out += self.inplace_adjoint(stmt, *inplace, target.id, state)
            elif target.id in state and self.is_active(stmt, target.id):
                out += self.adjoint_of(stmt, target.id, stmt.value, state)
            if self.calls.saved_name(stmt) and self.loop_depth > 0:
                out.append(self.pop(self.calls.saved_name(stmt)))
            state.pop(target.id, None)
            if self.overwrites(stmt, target.id):
                out.append(self.pop(target.id))
            return out
        if isinstance(stmt, gast.If):
            return [] if _is_loop_exit(stmt) else self.backward_if(stmt, state)
        if isinstance(stmt, (gast.For, gast.While)):
            return self.backward_loop(stmt, state)
        if isinstance(stmt, gast.With):
            # Without an exception a `with` block runs straight through: so does its adjoint.
            return self.backward_block(stmt.body, state)
        if isinstance(stmt, gast.Try):
            return self.backward_block(stmt.finalbody, state) \
                + self.backward_block(stmt.body, state)
        if isinstance(stmt, gast.Expr):
            return self.backward_bare_call(stmt, state)
        return []

    def backward_bare_call(self, stmt, state):
        """List growth and pops, and in-place helpers (rule rows made by ``definplace``);
        any other bare call on values being differentiated is rejected."""
        call = stmt.value
        method = _list_growth(call)
        if method is not None:
            return self.growth_adjoint(stmt, call, method, state)
        if _list_pop(call):
            return self.pop_adjoint(stmt, call, None, state)
        inplace = self.inplace_call(call)
        if inplace is None:
            self.check_bare_call(stmt)
            return []
        rule, values = inplace
        out = self.inplace_adjoint(stmt, rule, values, None, state)
        if rule.saves is not None:
            base = values[rule.params[0]]
            restore = syntax.quote("_sg.restore_item(x, i, stack.pop())", x=base,
                                   i=values[rule.saves], stack=self.stack)[0]
            restore.saved = base.id
            out.append(restore)
        return out

    def growth_adjoint(self, stmt, call, method, state):
        """``lst.append(v)`` / ``lst.extend(vs)``: the last cotangents of ``lst`` go back to
        ``v`` / ``vs``. A list's cotangent is aligned with the list's contents at the same
        point of the forward sweep, so once ``lst`` may carry a derivative, its growth is
        undone even on a zero cotangent (a later read must find its item's place)."""
        base, item = call.func.value.id, call.args[0]
        if base not in state and not self.varied(stmt, call.func.value):
            return []
        out = self.own(base, state)
        count = "" if method == "append" else ", len(v)"
        part = syntax.quote_expr(f"_sg.pop_last(d{count})", d=self.namer.adjoint(base), v=item)
        if self.varied(stmt, item):
            out += self.accumulate(item.id, part, state, owned=True)
        else:
            out.append(gast.Expr(value=part))
        return out

    def pop_adjoint(self, stmt, call, target, state):
        """``x = lst.pop()`` / ``lst.pop(i)``: the cotangent of ``x`` (zeros when it has
        none) goes back on ``lst``'s cotangent where the item was."""
        base = call.func.value
        if base.id not in state and not self.varied(stmt, base):
            return []
        if target is not None and target in state:
            g = syntax.name(self.namer.adjoint(target))
        else:
            g = syntax.quote_expr("_sg.zeros_like(x)", x=target) if target else syntax.const(None)
        out = self.own(base.id, state)
        dbase = self.namer.adjoint(base.id)
        if call.args:
            return out + syntax.quote("_sg.unpop_at(d, i, g)", d=dbase, i=call.args[0], g=g)
        return out + syntax.quote("_sg.unpop(d, g)", d=dbase, g=g)

    def inplace_call(self, call):
        """(rule, bound arguments) when ``call`` calls an in-place rule row on a local."""
        if not isinstance(call, gast.Call):
            return None
        info = self.call_info(call)
        if info.kind != "rule" or not info.rule.inplace:
            return None
        values = self.rules.bind(call, info.rule, info.args, info.keywords)
        return (info.rule, values) if isinstance(values[info.rule.params[0]], gast.Name) \
            else None

    def inplace_adjoint(self, stmt, rule, values, target, state):
        """The functional update behind an in-place call: the other arguments' cotangents
        are read from ``g`` (the updated value's cotangent), then ``rule.update`` turns
        ``g`` into the cotangent before the call."""
        base = values[rule.params[0]].id
        has_result = target is not None and target in state
        if base not in state and not has_result and not (
                rule.resizes and self.varied(stmt, values[rule.params[0]])):
            return []
        if has_result:
            g_ans = syntax.name(self.namer.adjoint(target))
        else:
            g_ans = syntax.quote_expr("_sg.zeros_like(x)", x=target) if target else \
                syntax.const(None)
        out = self.own(base, state) if rule.update is not None else []
        if base not in state:
            return out
        subs = dict(values, g=syntax.name(self.namer.adjoint(base)), g_ans=g_ans)
        for param, template in rule.adjoints.items():
            atom = values.get(param)
            if isinstance(atom, gast.Name) and self.varied(stmt, atom):
                out += self.accumulate(atom.id, syntax.quote_expr(template, **subs), state)
        if rule.update is not None:
            out += syntax.quote(rule.update, **subs)
        return out

    def check_bare_call(self, stmt):
        """A call whose value is dropped may still change what it is given: with no rule
        saying how, a derivative would be lost, so it is an error."""
        call = stmt.value
        if not isinstance(call, gast.Call):
            return
        info = self.call_info(call)
        if info.kind == "nondiff" or (info.kind == "rule" and not info.rule.inplace):
            return
        operands = list(info.args or []) + [value for _, value in info.keywords or []]
        if any(self.varied(stmt, atom) for atom in operands):
            what = f"`{info.name}`" if info.kind not in ("unknown", "dynamic") \
                or not info.name.startswith(".") \
                else f"the in-place method call `{info.name}`"
            raise self.parsed.error(
                f"{what} is called for its effect on values being differentiated, and "
                "srcgrad has no rule for what it does in place; assign its result "
                "instead, or register the update with srcgrad.rules.definplace", stmt)

    def adjoint_of(self, stmt, target, value, state):
        g = self.namer.adjoint(target)
        if isinstance(value, gast.Name):
            if not self.varied(stmt, value):
                return []
            return self.accumulate(value.id, syntax.name(g), state)
        if isinstance(value, gast.BinOp):
            rule = self.rules.rule_for(operators.BINARY[type(value.op)])
            return self.rules.expand(stmt, rule, [value.left, value.right], [], g, target, state)
        if isinstance(value, gast.UnaryOp):
            rule = self.rules.rule_for(operators.UNARY[type(value.op)])
            return self.rules.expand(stmt, rule, [value.operand], [], g, target, state)
        if isinstance(value, gast.Call):
            return self.call_adjoint(stmt, target, value, g, state)
        if isinstance(value, gast.Subscript):
            if not self.varied(stmt, value.value):
                return []
            return self.add_at(value.value.id, value.slice, syntax.name(g), state)
        if isinstance(value, (gast.Tuple, gast.List)):
            out = []
            for i, elt in enumerate(value.elts):
                if self.varied(stmt, elt):
                    item = syntax.quote_expr("g[i]", g=g, i=syntax.const(i))
                    out += self.accumulate(elt.id, item, state)
            return out
        if isinstance(value, gast.Attribute):
            return self.attribute_adjoint(stmt, value, g, state)
        if isinstance(value, gast.Dict):
            out = []
            for key, item in zip(value.keys, value.values):
                if self.varied(stmt, item):
                    part = syntax.quote_expr("_sg.get_item(g, k, v)", g=g, k=key, v=item)
                    out += self.accumulate(item.id, part, state)
            return out
        return []

    def attribute_adjoint(self, stmt, value, g, state):
        """``t = obj.attr``: a linear array attribute (``.T``), or a field of a parameter
        object whose cotangent is collected in a (sparse) dict."""
        if not self.varied(stmt, value.value):
            return []
        template = ARRAY_ATTRIBUTES.get(value.attr)
        if template is not None:
            return self.accumulate(value.value.id, syntax.quote_expr(template, g=g), state)
        base = value.value.id
        out = self.own(base, state)
        out += syntax.quote("_sg.add_attr(d, name, g)", d=self.namer.adjoint(base),
                            name=syntax.const(value.attr), g=g)
        return out

    def call_adjoint(self, stmt, target, call, g, state):
        info = self.call_info(call)
        if info.kind == "nondiff":
            return []
        if info.kind == "rule":
            return self.rules.expand(stmt, info.rule, info.args, info.keywords, g, target, state)
        if info.kind in ("user", "dynamic"):
            return self.calls.adjoint(stmt, info, g, state)
        if info.kind == "variable":
            return self.variable_read_adjoint(stmt, info, g, state)
        raise self.parsed.error(
            f"no derivative rule for `{info.name}`, which is called on values being "
            f"differentiated. Register one, e.g.\n"
            f"    srcgrad.defrule({info.name}, 'x', x='g * <partial derivative>')\n"
            f"or wrap it with srcgrad.custom_vjp, or apply srcgrad.stop_gradient to its "
            f"inputs if no derivative should flow", stmt, MissingRuleError)

    def reads_variable(self, stmt):
        """Is ``stmt`` ``v = _sg.read_variable(obj)`` or a user call (which may read
        Variables): a source in an eager unit?"""
        return isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Call) \
            and self.call_info(stmt.value).kind in ("variable", "user", "dynamic")

    def variable_read_adjoint(self, stmt, info, g, state):
        """The cotangent of a read goes to the Variable (and to ``obj`` when it is a
        value being differentiated: ``read_variable`` is the identity on non-Variables)."""
        obj = info.args[0]
        out = syntax.quote("_sg.variable_cotangent(obj, g)", obj=obj, g=g)
        if self.varied(stmt, obj):
            out += self.accumulate(obj.id, syntax.name(g), state)
        return out

    def backward_subscript_write(self, stmt, target, state):
        base, index = target.value.id, target.slice
        out = []
        if base in state:
            dbase = self.namer.adjoint(base)
            if self.varied(stmt, stmt.value):
                contribution = syntax.quote_expr("_sg.item_adjoint(dx, i, v)", dx=dbase,
                                                 i=syntax.index_value(index), v=stmt.value)
                out += self.accumulate(stmt.value.id, contribution, state, owned=True)
            out += self.own(base, state)
            out += syntax.quote("_sg.clear_item(dx, i)", dx=dbase, i=syntax.index_value(index))
        restore = syntax.quote("_sg.restore_item(x, i, stack.pop())", x=base,
                               i=syntax.index_value(index), stack=self.stack)[0]
        restore.saved = base
        out.append(restore)
        return out

    def backward_if(self, stmt, state):
        then_state, else_state = dict(state), dict(state)
        then_code = self.backward_block(stmt.body, then_state)
        else_code = self.backward_block(stmt.orelse, else_state)
        for name in sorted(set(then_state) | set(else_state)):
            if name not in then_state:
                then_code += self.materialize(name, then_state)
            if name not in else_state:
                else_code += self.materialize(name, else_state)
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

    def backward_loop(self, stmt, state):
        body = stmt.body[:-1] if stmt.body and _is_loop_exit(stmt.body[-1]) else stmt.body
        before = []
        for _ in range(6):  # reach a state that holds at the top of every iteration
            trial = dict(state)
            self.loop_depth += 1
            self.backward_iteration(stmt, body, trial, probe=True)
            self.loop_depth -= 1
            new = [n for n in trial if n not in state]
            demoted = [n for n in trial if state.get(n) == OWNED and trial[n] == SHARED]
            if not new and not demoted:
                break
            for name in sorted(new):
                before += self.materialize(name, state)
            for name in demoted:
                state[name] = SHARED
        entry = dict(state)
        self.loop_depth += 1
        code = self.backward_iteration(stmt, body, state, probe=False)
        self.loop_depth -= 1
        for name in sorted(entry):
            if name not in state:
                code += self.materialize(name, state)
            elif entry[name] == OWNED and state[name] == SHARED:
                code += self.own(name, state)
        loop = self.reversed_loop(stmt, code)
        after = []
        counter = self.loop_counter(stmt)
        if counter and self.loop_depth > 0:
            after.append(self.pop(counter))
        if isinstance(stmt, gast.For) and not _is_range(stmt.iter) \
                and self.target_defined_outside(stmt):
            after.append(self.pop(stmt.target.id))
        return before + [loop] + after

    def backward_iteration(self, stmt, body, state, probe):
        code = self.backward_block(body, state)
        if isinstance(stmt, gast.For) and not _is_range(stmt.iter):
            target = stmt.target.id
            tail = []
            if target in state and self.is_active(stmt, target) \
                    and self.varied(stmt, stmt.iter):
                index = syntax.name(self._reverse_index(stmt))
                tail += self.add_at(stmt.iter.id, index, syntax.name(self.namer.adjoint(target)),
                                    state)
            state.pop(target, None)
            code = [self.pop(target)] + code + tail
        return code

    def _reverse_index(self, stmt):
        if not hasattr(stmt, "_srcgrad_index"):
            stmt._srcgrad_index = self.namer.fresh("i")
        return stmt._srcgrad_index

    def reversed_loop(self, stmt, code):
        code = code or [gast.Pass()]
        counter = self.loop_counter(stmt)
        if isinstance(stmt, gast.For) and _is_range(stmt.iter):
            iterable = stmt.iter if counter is None else syntax.quote_expr(
                "r[:n]", r=stmt.iter, n=counter)
            header = syntax.quote_expr("reversed(r)", r=iterable)
            return gast.For(target=syntax.clone(stmt.target), iter=header, body=code,
                            orelse=[], type_comment=None)
        index = getattr(stmt, "_srcgrad_index", None)
        uses_index = any(isinstance(n, gast.Name) and n.id == index
                         for s in code for n in gast.walk(s))
        if uses_index:
            loop = syntax.quote("for i in reversed(range(n)):\n    pass",
                                i=stmt._srcgrad_index, n=counter)[0]
        else:
            loop = syntax.quote("for _ in range(n):\n    pass", n=counter)[0]
        loop.body = code
        return loop

    # -- adjoint bookkeeping ---------------------------------------------------------------
    def accumulate(self, var, contribution, state, owned=None):
        """``dvar = contribution`` the first time, ``dvar += contribution`` after."""
        adjoint = self.namer.adjoint(var)
        if owned is None:
            owned = isinstance(contribution, (gast.BinOp, gast.UnaryOp))
        if var not in state:
            state[var] = OWNED if owned else SHARED
            return [syntax.assign(adjoint, contribution)]
        if var in self.containers:
            state[var] = OWNED
            return syntax.quote("d = _sg.add_cotangents(d, c)", d=adjoint, c=contribution)
        if state[var] == OWNED:
            return syntax.quote("d += c", d=adjoint, c=contribution)
        state[var] = OWNED
        return syntax.quote("d = d + c", d=adjoint, c=contribution)

    def add_at(self, var, index, contribution, state):
        """``dvar[index] += contribution`` into a buffer this function owns."""
        out = self.own(var, state)
        out += syntax.quote("_sg.add_at(d, i, c)", d=self.namer.adjoint(var),
                            i=syntax.index_value(index), c=contribution)
        return out

    def own(self, var, state):
        adjoint = self.namer.adjoint(var)
        if var not in state:
            return self.materialize(var, state)
        if state[var] == SHARED:
            state[var] = OWNED
            return syntax.quote("d = _sg.snapshot(d)", d=adjoint)
        return []

    def materialize(self, var, state):
        state[var] = OWNED
        return syntax.quote("d = _sg.zeros_like(x)", d=self.namer.adjoint(var), x=var)


def _container_names(body, params):
    """Names whose values may be containers (indexed, iterated, grown, read by field, or
    built as tuple/list/dict literals): their cotangents are added item by item."""
    found = set()
    for stmt in body:
        for node in gast.walk(stmt):
            base = None
            if isinstance(node, gast.Subscript) or (
                    isinstance(node, gast.Attribute) and not is_array_attribute(node.attr)):
                base = node.value
            elif isinstance(node, gast.For):
                base = node.iter
            elif isinstance(node, gast.Call) and _list_growth(node):
                base = node.func.value
            elif isinstance(node, gast.Assign) and isinstance(
                    node.value, (gast.Tuple, gast.List, gast.Dict)):
                base = node.targets[0]
            if isinstance(base, gast.Name):
                found.add(base.id)
    return found - {"np", "math"}


def _list_growth(call):
    """'append' / 'extend' for ``name.append(atom)`` / ``name.extend(atom)``, else None."""
    if (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and call.func.attr in ("append", "extend") and isinstance(call.func.value, gast.Name)
            and len(call.args) == 1 and not call.keywords):
        return call.func.attr
    return None


def _list_pop(call):
    """Is ``call`` ``name.pop()`` or ``name.pop(i)`` (a list's last or i-th item)?"""
    return (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and call.func.attr == "pop" and isinstance(call.func.value, gast.Name)
            and len(call.args) <= 1 and not call.keywords)


def _is_range(expr):
    return isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name) \
        and expr.func.id == "range"


def _is_loop_exit(stmt):
    return (isinstance(stmt, gast.If) and len(stmt.body) == 1
            and isinstance(stmt.body[0], gast.Break) and not stmt.orelse)


def _has_exit(stmt):
    return bool(stmt.body) and _is_loop_exit(stmt.body[-1])
