"""Reverse mode for containers and in-place updates: ``x[i] = v``, ``lst.append(v)``,
``x = lst.pop()``, in-place runtime helpers declared with ``definplace``.

Before::                         After (adjoint, in the backward sweep)::

    x[i] = v                         dv = _sg.item_adjoint(dx, i, v)
                                     _sg.clear_item(dx, i)
                                     _sg.restore_item(x, i, stack.pop())
    outs.append(h)                   dh = _sg.pop_last(douts)
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis.escapes import ReadBack
from srcgrad.modes.calls import escape_statement, guard_escaping_callee, structure_fields
from srcgrad.modes.reverse_common import list_growth, list_insert, list_pop
from srcgrad.syntax import gast


class ContainerAdjoints:
    """The adjoints of writes into containers for ``ReverseMode``: bare calls
    (``xs.append(v)``, ``xs.pop()``, in-place rule rows), subscript writes, and
    structures built by a call. Held by the mode as ``mode.container_adjoints``."""

    def __init__(self, mode):
        self.mode = mode

    def backward_bare_call(self, stmt, state):
        """List growth and pops, and in-place helpers (rule rows made by ``definplace``);
        any other bare call on values being differentiated is rejected."""
        call = stmt.value
        method = list_growth(call, self.mode.instances)
        if method is not None:
            return self.growth_adjoint(stmt, call, method, state)
        if list_pop(call, self.mode.instances):
            return self.pop_adjoint(stmt, call, None, state)
        if list_insert(call, self.mode.instances):
            return self.insert_adjoint(stmt, call, state)
        inplace = self.inplace_call(call)
        if inplace is None:   # checked in the forward sweep (see check_bare_call)
            return []
        rule, values = inplace
        out = self.inplace_adjoint(stmt, rule, values, None, state)
        if rule.saves is not None:
            base = values[rule.params[0]]
            restore = syntax.quote("_sg.restore_item(x, i, stack.pop())", x=base,
                                   i=values[rule.saves], stack=self.mode.stack)[0]
            restore.saved = base.id
            out.append(restore)
        return out

    def structure_adjoint(self, stmt, info, g, state):
        """``p = Point(a, y=b)`` (a NamedTuple or dataclass): each argument's cotangent is
        its field's in ``g`` (a ``Point``, or a sparse dict of the fields read)::

            da = _sg.field_cotangent(dp, 0, 'x', a)
        """
        out = []
        for index, name, value in bind_fields(self.mode.parsed, stmt, info):
            if self.mode.varied(stmt, value):
                part = syntax.quote_expr("_sg.field_cotangent(g, i, name, v)", g=g,
                                         i=syntax.const(index), name=syntax.const(name),
                                         v=value)
                out += self.mode.bookkeeping.accumulate(value.id, part, state)
        return out

    def primal_undo(self, template, base, **values):
        """The statement that undoes a resize of the list ``base`` itself in the backward
        sweep, so that what the sweep reads of it further back (an item restored by
        ``restore_item``, its length) is what the forward sweep saw there. Marked as a
        restore of ``base``: dropped with its saves when the sweep reads ``base`` no more."""
        undo = syntax.quote(template, x=syntax.name(base), **values)[0]
        undo.saved = base
        return undo

    def growth_adjoint(self, stmt, call, method, state):
        """``lst.append(v)`` / ``lst.extend(vs)``: the last cotangents of ``lst`` go back to
        ``v`` / ``vs``. A list's cotangent is aligned with the list's contents at the same
        point of the forward sweep, so once ``lst`` may carry a derivative, its growth is
        undone even on a zero cotangent (a later read must find its item's place); the
        list itself shrinks back too (``primal_undo``)."""
        base, item = call.func.value.id, call.args[0]
        undo = self.primal_undo("_sg.pop_last(x)" if method == "append" else
                                "_sg.pop_last(x, len(v))", base, v=item)
        return self._growth_adjoint(stmt, call, method, state) + [undo]

    def _growth_adjoint(self, stmt, call, method, state):
        base, item = call.func.value.id, call.args[0]
        if base not in state and not self.mode.varied(stmt, call.func.value):
            return []
        out = self.mode.bookkeeping.own(base, state)
        count = "" if method == "append" else ", len(v)"
        part = syntax.quote_expr(f"_sg.pop_last(d{count})", d=self.mode.namer.adjoint(base), v=item)
        if self.mode.namer.adjoint(base) in self.mode.sparse:
            part = syntax.quote_expr("_sg.dense(p, v)", p=part, v=item)
        if self.mode.varied(stmt, item):   # not owned: list slots may share one buffer
            out += self.mode.bookkeeping.accumulate(item.id, part, state, owned=False)
        else:
            out.append(gast.Expr(value=part))
        return out

    def insert_adjoint(self, stmt, call, state):
        """``lst.insert(p, v)`` (``p`` a position in the list): ``v``'s cotangent is the
        one at ``p``, taken out of ``lst``'s cotangent; ``v`` is taken out of ``lst``
        itself too (``primal_undo``)."""
        base, position, item = call.func.value.id, call.args[0], call.args[1]
        out = []
        if base in state or self.mode.varied(stmt, call.func.value):
            out += self.mode.bookkeeping.own(base, state)
            dbase = self.mode.namer.adjoint(base)
            part = syntax.quote_expr("_sg.inserted_item(d, p)", d=dbase, p=position)
            if dbase in self.mode.sparse:
                part = syntax.quote_expr("_sg.dense(g, v)", g=part, v=item)
            if self.mode.varied(stmt, item):
                out += self.mode.bookkeeping.accumulate(item.id, part, state, owned=False)
            out += syntax.quote("_sg.remove_inserted(d, p)", d=dbase, p=position)
        return out + [self.primal_undo("_sg.remove_inserted(x, p)", base, p=position)]

    def pop_adjoint(self, stmt, call, target, state):
        """``x = lst.pop()`` / ``lst.pop(i)``: the cotangent of ``x`` (zeros when it has
        none) goes back on ``lst``'s cotangent where the item was, and ``x`` back in the
        list itself (``primal_undo``)."""
        out = self._pop_adjoint(stmt, call, target, state)
        base = call.func.value.id
        # the popped item: the target, or what a bare pop saved (``forward_bare_call``)
        item = syntax.name(target) if target is not None else syntax.quote_expr(
            "stack.pop()", stack=self.mode.stack)
        if call.args:
            undo = self.primal_undo("_sg.unpop_at(x, i, v)", base, i=call.args[0], v=item)
        else:
            undo = self.primal_undo("_sg.unpop(x, v)", base, v=item)
        # a bare pop's item has a zero cotangent shaped like the item, which is back in
        # the list once undone (``del xs[i:j]`` pops each position)
        return [undo] + out if target is None and out else out + [undo]

    def _pop_adjoint(self, stmt, call, target, state):
        base = call.func.value
        if base.id not in state and not self.mode.varied(stmt, base):
            return []
        if target is not None and target in state:
            g = syntax.name(self.mode.namer.adjoint(target))
            if g.id in self.mode.sparse:   # the popped item is at hand here, not later
                g = syntax.quote_expr("_sg.dense(g, x)", g=g, x=syntax.name(target))
        else:
            g = syntax.quote_expr("_sg.zeros_like(x)", x=target) if target else \
                syntax.quote_expr("_sg.zeros_like(lst[i])", lst=syntax.name(base.id),
                                  i=call.args[0] if call.args else syntax.const(-1))
        out = self.mode.bookkeeping.own(base.id, state)
        dbase = self.mode.namer.adjoint(base.id)
        if call.args:
            return out + syntax.quote("_sg.unpop_at(d, i, g)", d=dbase, i=call.args[0], g=g)
        return out + syntax.quote("_sg.unpop(d, g)", d=dbase, g=g)

    def inplace_call(self, call):
        """(rule, bound arguments) when ``call`` calls an in-place rule row on a local."""
        if not isinstance(call, gast.Call):
            return None
        info = self.mode.call_info(call)
        if info.kind != "rule" or not info.rule.inplace:
            return None
        values = self.mode.rules.bind(call, info.rule, info.args, info.keywords)
        return (info.rule, values) if isinstance(values[info.rule.params[0]], gast.Name) \
            else None

    def inplace_adjoint(self, stmt, rule, values, target, state):
        """The functional update behind an in-place call: the other arguments' cotangents
        are read from ``g`` (the updated value's cotangent), then ``rule.update`` turns
        ``g`` into the cotangent before the call."""
        base = values[rule.params[0]].id
        has_result = target is not None and target in state
        if base not in state and not has_result and not (
                rule.resizes and self.mode.varied(stmt, values[rule.params[0]])):
            return []
        if has_result:
            g_ans = syntax.name(self.mode.namer.adjoint(target))
        else:
            g_ans = syntax.quote_expr("_sg.zeros_like(x)", x=target) if target else \
                syntax.const(None)
        out = self.mode.bookkeeping.own(base, state) if rule.update is not None else []
        if base not in state:
            return out
        out += self.mode.bookkeeping.densify(base, state)
        if has_result:
            out += self.mode.bookkeeping.densify(target, state)
        subs = dict(values, g=syntax.name(self.mode.namer.adjoint(base)), g_ans=g_ans)
        for param, template in rule.adjoints.items():
            atom = values.get(param)
            if isinstance(atom, gast.Name) and self.mode.varied(stmt, atom):
                contribution = syntax.quote_expr(template, **subs)
                out += self.mode.bookkeeping.accumulate(atom.id, contribution, state)
        if rule.update is not None:
            out += syntax.quote(rule.update, **subs)
        return out

    def check_bare_call(self, stmt):
        """A call whose value is dropped may still change what it is given or keep it:
        with no rule saying how, it runs with the differentiated values it is given
        passed read-only, when the function cannot read back what it kept, or is refused
        (see ``calls.escape_statement``). Returns the statement to run in the forward
        sweep (statements)."""
        call = stmt.value
        if not isinstance(call, gast.Call):
            return [stmt]
        info = self.mode.call_info(call)
        if info.kind == "nondiff" or (info.kind == "rule" and not info.rule.inplace):
            return [stmt]
        operands = list(info.args or []) + [value for _, value in info.keywords or []]
        if isinstance(call.func, gast.Attribute):
            operands.append(call.func.value)
        if not any(self.mode.varied(stmt, atom) for atom in operands):
            return [stmt]
        mode = self.mode
        return escape_statement(mode.parsed, info, stmt, lambda atom: mode.varied(stmt, atom),
                                self._read_back(), mode.escapes)

    def guard_escaping_callee(self, stmt, info):
        """See ``calls.guard_escaping_callee``: ``([], [])`` for most callees."""
        kept = getattr(self.mode.callee_names, "escaping", {}).get(info.target)
        if not kept:
            return [], []
        return guard_escaping_callee(self.mode.parsed, stmt, info.name, kept, self._read_back(),
                                     self.mode.escapes, self.mode.namer)

    def _read_back(self):
        mode = self.mode
        return ReadBack(mode.parsed, mode.node, mode.locals, mode.call_info, mode.varied)

    def backward_subscript_write(self, stmt, target, state):
        base, index = target.value.id, target.slice
        out = []
        if base in state:
            dbase = self.mode.namer.adjoint(base)
            if self.mode.varied(stmt, stmt.value):
                contribution = syntax.quote_expr(   # nothing through an integer array
                    "_sg.stored_derivative(_sg.item_adjoint(dx, i, v), x)", dx=dbase,
                    i=syntax.index_value(index), v=stmt.value, x=base)
                out += self.mode.bookkeeping.accumulate(stmt.value.id, contribution, state,
                                                        owned=True)
            out += self.mode.bookkeeping.own(base, state)
            out += syntax.quote("_sg.clear_item(dx, i)", dx=dbase, i=syntax.index_value(index))
        restore = syntax.quote("_sg.restore_item(x, i, stack.pop())", x=base,
                               i=syntax.index_value(index), stack=self.mode.stack)[0]
        restore.saved = base
        out.append(restore)
        return out

    def forward_bare_call(self, stmt):
        """A bare call to an in-place helper that overwrites an item (``definplace`` with
        ``saves``) saves the item first, as ``x[i] = v`` does, for the backward sweep to
        restore."""
        inplace = self.inplace_call(stmt.value)
        instances = self.mode.instances
        if inplace is None and list_growth(stmt.value, instances) is None \
                and not list_pop(stmt.value, instances) \
                and not list_insert(stmt.value, instances):
            return self.check_bare_call(stmt)
        if list_pop(stmt.value, instances):   # a bare pop saves its item, to be put back
            call = stmt.value
            index = call.args[0] if call.args else syntax.const(-1)
            base = call.func.value
            saved = syntax.quote_expr("_sg.saved_item(x, i)", x=base, i=index)
            return [self.mode.push(base.id, saved, stmt), stmt]
        if inplace is None or inplace[0].saves is None:
            return [stmt]
        rule, values = inplace
        base = values[rule.params[0]]
        saved = syntax.quote_expr("_sg.saved_item(x, i)", x=base, i=values[rule.saves])
        return [self.mode.push(base.id, saved, stmt), stmt]


def bind_fields(parsed, stmt, info):
    """``[(index, field name, argument atom)]`` of a call to a NamedTuple or dataclass."""
    fields = structure_fields(info.target)
    if any(isinstance(a, gast.Starred) for a in info.args) \
            or any(name is None for name, _ in info.keywords):
        raise parsed.error(f"a call to `{info.name}` with *args or **kwargs is not "
                           "differentiated; pass its fields one by one", stmt)
    bound = list(zip(range(len(info.args)), fields, info.args))
    bound += [(fields.index(name), name, value) for name, value in info.keywords
              if name in fields]
    return bound
