"""Expand a rule-table row into the tangent expression at one call site.

The same rows serve reverse mode (``modes/reverse_rules``); here each kind of row gives:

- elementwise partials: ``t_dot = x_dot * partial + y_dot * partial``;
- linear rows: the same call with the tangents in place of the linear arguments;
- template rows: the sum of the tangent terms (written with ``x_dot`` names).

Before: ``_mul = x * w`` with the row ``np.multiply: ("y", "x")``, tangents for x and w.
After::

    _mul_dot = x_dot * w + w_dot * x

A single term whose partial is a constant (``_add = x + b`` with only ``x_dot``) is
broadcast to the result's shape: ``_add_dot = _sg.broadcast_tangent(x_dot, _add)``.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.errors import MissingRuleError
from srcgrad.optimize.const_fold import fold_constants
from srcgrad.rules.registry import _times_g
from srcgrad.syntax import gast

_MODULES = {"np", "math", "_sg"}


class TangentExpander:
    def __init__(self, mode):
        self.mode = mode

    def expand(self, stmt, info, call, target, state):
        """The tangent expression of ``target = call`` for a rule row, or None (zero)."""
        rule = info.rule
        values = self.mode.reverse_rules.bind(stmt, rule, info.args, info.keywords)
        self.mode.reverse_rules.refuse_constant_params(
            stmt, rule, values, lambda _, atom: isinstance(atom, gast.Name) and atom.id in state)
        tangent = rule.tangent
        if tangent == "linear":
            linear = rule.linear_in or tuple(rule.adjoints)
            return self.linear(call, info, values, linear, state)
        if not isinstance(tangent, dict):
            raise self.mode.parsed.error(
                f"no forward-mode rule for `{rule.name}`. Register one with "
                f"srcgrad.defrule({rule.name.split('.')[-1]}, ..., tangent=...) or "
                "srcgrad.defelementwise", stmt, MissingRuleError)
        terms = []
        for param in rule.params:
            atom = values.get(param)
            if not (isinstance(atom, gast.Name) and atom.id in state):
                continue
            if param not in tangent and param in rule.adjoints:
                raise self.mode.parsed.error(
                    f"the forward-mode rule for `{rule.name}` has no tangent term for its "
                    f"argument `{param}`", stmt, MissingRuleError)
            template = tangent.get(param)
            if template is None:
                continue
            dots = {f"{p}_dot": syntax.name(self.mode.tangent(values[p].id))
                    for p in rule.params if isinstance(values.get(p), gast.Name)
                    and values[p].id in state}
            if f"{param}_dot" not in syntax.loaded_names(syntax.quote_expr(template)):
                template = _times_g(template)
                dots["g"] = dots[f"{param}_dot"]
            term = fold_constants(syntax.quote_expr(template, ans=syntax.name(target),
                                                    **values, **dots))
            terms.append((param, term))
        if not terms:
            return None
        total = terms[0][1]
        for _, term in terms[1:]:
            total = syntax.quote_expr("_sg.add_tangents(a, b)", a=total, b=term) \
                if rule.structured else gast.BinOp(left=total, op=gast.Add(), right=term)
        if len(terms) == 1 and rule.broadcasts and self._constant_partial(total) \
                and _may_broadcast(rule, values, terms[0][0]):
            total = syntax.quote_expr("_sg.broadcast_tangent(t, ans)", t=total,
                                      ans=syntax.name(target))
        return total

    def linear(self, call, info, values, linear, state):
        """The same call, each linear argument replaced by its tangent (zeros if none)."""
        linear_atoms = {id(values[p]) for p in linear if p in values}
        if not any(id(a) in linear_atoms and isinstance(a, gast.Name) and a.id in state
                   for a in self._atoms(info)):
            return None

        def swap(atom):
            if id(atom) not in linear_atoms or not isinstance(atom, gast.Name):
                return atom
            return self.mode.tangent_or_zero(atom, state)

        new = syntax.clone(call)
        if isinstance(call.func, gast.Attribute) and info.args and info.args[0] is call.func.value:
            new.func.value = swap(call.func.value)
        new.args = [swap(a) for a in call.args]
        for kw_new, kw in zip(new.keywords, call.keywords):
            kw_new.value = swap(kw.value)
        if info.rule.tangent_call:
            new.func = syntax.quote_expr(info.rule.tangent_call)
        return new

    @staticmethod
    def _atoms(info):
        return list(info.args) + [value for _, value in info.keywords]

    @staticmethod
    def _constant_partial(total):
        """Is ``total`` just a (scaled) tangent, not mixed with any operand's shape?"""
        names = set(syntax.loaded_names(total)) - _MODULES
        return len(names) == 1


def _may_broadcast(rule, values, param):
    """Unless every other operand is a literal number, ``param`` may be broadcast."""
    others = [values[p] for p in rule.params if p != param and p in values]
    return not all(isinstance(o, gast.Constant) and isinstance(o.value, (int, float))
                   for o in others)
