"""Reverse mode for one assignment's value (the methods ``ReverseMode`` gets from
``ExpressionAdjoints``): the backward statements that pass ``dt`` on to the operands of
``t = value``.

Before::                          After (backward sweep)::

    t = a * b                         da = _sg.unbroadcast(dt * b, a)
                                      db = _sg.unbroadcast(dt * a, b)
    u = [a, b]                        (da gets du[0], db gets du[1])
    v = obj.w                         _sg.add_attr(d_obj, 'w', dv)
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.modes.calls import missing_rule_error
from srcgrad.modes.reverse_common import concatenates
from srcgrad.rules import operators
from srcgrad.rules.methods import ARRAY_ATTRIBUTES
from srcgrad.syntax import gast


class ExpressionAdjoints:
    """The adjoint of ``t = value`` for each kind of ``value``: a name, an operator, a
    call, an item, a tuple, list or dict display, an attribute, a concatenation."""

    def adjoint_of(self, stmt, target, value, state):
        g = self.namer.adjoint(target)
        if isinstance(value, gast.Name):
            if not self.varied(stmt, value):
                return []
            return self.bookkeeping.accumulate(value.id, syntax.name(g), state)
        if isinstance(value, gast.BinOp) and self.concatenates(value):
            return self.concat_adjoint(stmt, value, g, state)
        if isinstance(value, gast.BinOp) and self.may_concatenate(value, target):
            return self.concat_adjoint(stmt, value, g, state, "_sg.sum_part")
        if isinstance(value, gast.BinOp):
            rule = operators.operator_rule(type(value.op))
            return self.rules.expand(stmt, rule, [value.left, value.right], [], g, target, state)
        if isinstance(value, gast.UnaryOp):
            rule = operators.operator_rule(type(value.op))
            return self.rules.expand(stmt, rule, [value.operand], [], g, target, state)
        if isinstance(value, gast.Call):
            return self.call_adjoint(stmt, target, value, g, state)
        if isinstance(value, gast.Subscript):
            if not self.varied(stmt, value.value):
                return []
            return self.bookkeeping.add_at(value.value.id, value.slice, syntax.name(g), state)
        if isinstance(value, (gast.Tuple, gast.List)):
            # A list's slot may have been cleared (``_sg.clear_item``) to a scalar 0.0 by
            # an overwrite with a value of another shape, and in a loop the adjoint may be
            # the None slots another iteration left (``_sg.slots_like``): get_item gives
            # zeros shaped like the item then.
            template = "_sg.get_item(g, i, v)" if self.loop_depth > 0 or (
                isinstance(value, gast.List) and self.list_items_overwritten) else "g[i]"
            out = []
            for i, elt in enumerate(value.elts):
                if self.varied(stmt, elt):
                    item = syntax.quote_expr(template, g=g, i=syntax.const(i), v=elt)
                    out += self.bookkeeping.accumulate(elt.id, item, state)
            return out
        if isinstance(value, gast.Attribute):
            return self.attribute_adjoint(stmt, value, g, state)
        if isinstance(value, gast.Dict):
            out = []
            for key, item in zip(value.keys, value.values):
                if self.varied(stmt, item):
                    part = syntax.quote_expr("_sg.get_item(g, k, v)", g=g, k=key, v=item)
                    out += self.bookkeeping.accumulate(item.id, part, state)
            return out
        return []

    def concatenates(self, value):
        return concatenates(value, self.sequences)

    def may_concatenate(self, value, target):
        """Is ``target = a + b`` not proven arithmetic (neither side, nor the result, a
        number): a concatenation if both sides are lists or tuples when it runs?"""
        return isinstance(value.op, gast.Add) and target not in self.numbers and not any(
            isinstance(side, gast.Constant) or side.id in self.numbers
            for side in (value.left, value.right))

    def concat_adjoint(self, stmt, value, g, state, part_of="_sg.concat_part"):
        """``c = a + b`` on lists: ``a`` gets the first ``len(a)`` items of ``dc``
        (``_sg.sum_part``: that, or ``dc`` unbroadcast to ``a`` for numbers)."""
        out = []
        for which, side in enumerate((value.left, value.right)):
            if self.varied(stmt, side):
                part = syntax.quote_expr(f"{part_of}(g, a, b, k)", g=g, a=value.left,
                                         b=value.right, k=syntax.const(which))
                out += self.bookkeeping.accumulate(side.id, part, state)
        return out

    def attribute_adjoint(self, stmt, value, g, state):
        """``t = obj.attr``: a linear array attribute (``.T``), or a field of a parameter
        object whose cotangent is collected in a (sparse) dict."""
        if not self.varied(stmt, value.value):
            return []
        template = ARRAY_ATTRIBUTES.get(value.attr)
        if template is not None:
            contribution = syntax.quote_expr(template, g=g)
            return self.bookkeeping.accumulate(value.value.id, contribution, state)
        base = value.value.id
        out = self.bookkeeping.own(base, state)
        out += syntax.quote("_sg.add_attr(d, name, g, x)", d=self.namer.adjoint(base),
                            name=syntax.const(value.attr), g=g, x=value.value)
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
        if info.kind == "structure":
            return self.container_adjoints.structure_adjoint(stmt, info, g, state)
        raise missing_rule_error(self.parsed, info, stmt, forward=False)

    def variable_read_adjoint(self, stmt, info, g, state):
        """The cotangent of a read goes to the Variable (and to ``obj`` when it is a
        value being differentiated: ``read_variable`` is the identity on non-Variables)."""
        obj = info.args[0]
        out = syntax.quote("_sg.variable_cotangent(obj, g)", obj=obj, g=g)
        if self.varied(stmt, obj):
            out += self.bookkeeping.accumulate(obj.id, syntax.name(g), state)
        return out
