"""Expand a rule-table row into adjoint statements at one call site.

Before: ``_mul = x * w`` with the row ``np.multiply: ("y", "x")`` and cotangent ``d_mul``.
After::

    dx = _sg.unbroadcast(d_mul * w, x)
    dw = _sg.unbroadcast(d_mul * x, w)

Broadcasting is handled here, in one place: a contribution is summed back to its
operand's shape unless every other operand is a literal scalar.
"""

from __future__ import annotations

import re

from srcgrad import syntax
from srcgrad.errors import MissingRuleError, TransformError
from srcgrad.frontend.freshness import own_signature
from srcgrad.optimize.const_fold import fold_constants
from srcgrad.rules import REGISTRY
from srcgrad.syntax import gast

# NumPy functions whose ``math`` twin is exact and much faster on a scalar.
# Only functions defined on every float: math raises where NumPy returns inf or nan
# (log(0), sqrt(-1), exp(1000)), and a partial must behave like the NumPy one.
MATH_TWINS = {"sin": "sin", "cos": "cos", "tan": "tan", "arctan": "atan", "tanh": "tanh",
              "arcsinh": "asinh"}
_NP_CALL = re.compile(r"\bnp\.(" + "|".join(MATH_TWINS) + r")\(")


def _negation_outside(expr):
    """``_sg.unbroadcast(-e, x)`` as ``-_sg.unbroadcast(e, x)``: the same numbers (negation
    is exact and commutes with the sum), negated after the sum has shrunk the array
    rather than before (a subtraction's second operand broadcast over a large array)."""
    if isinstance(expr, gast.Call) and syntax.dotted_name(expr.func) == "_sg.unbroadcast" \
            and expr.args and isinstance(expr.args[0], gast.UnaryOp) \
            and isinstance(expr.args[0].op, gast.USub):
        expr.args[0] = expr.args[0].operand
        return gast.UnaryOp(op=gast.USub(), operand=expr)
    return expr


def _may_fold(template, values):
    """Can ``template`` instantiated with ``values`` hold literal arithmetic to fold? Not
    without a number in its text (every numeric literal has a digit) or a value that
    is neither a name nor a name's string."""
    numeric = _NUMERIC_TEMPLATES.get(template)
    if numeric is None:
        numeric = _NUMERIC_TEMPLATES[template] = any(c.isdigit() for c in template)
    return numeric or any(type(value) is not str and type(value) is not gast.Name
                          for value in values)


# template text -> has it a digit? (bounded: the rule table's templates, each wrapped in
# at most one of the helpers ``expand`` adds)
_NUMERIC_TEMPLATES: dict[str, bool] = {}


def scalar_template(template):
    """The template for scalar operands: ``np.cos(x)`` -> ``math.cos(x)``."""
    return _NP_CALL.sub(lambda m: f"math.{MATH_TWINS[m.group(1)]}(", template)


class RuleExpander:
    def __init__(self, mode):
        self.mode = mode
        self._grad_names = {}

    def rule_for(self, func):
        return REGISTRY.lookup(func)

    def bind(self, stmt, rule, args, keywords):
        try:
            bound = rule.bind(args, keywords)
        except TypeError as exc:
            raise self.mode.parsed.error(str(exc), stmt) from None
        values = {}
        for param in rule.params:
            if param in bound:
                values[param] = bound[param]
            elif param in rule.defaults:
                values[param] = syntax.quote_expr(rule.defaults[param])
            else:
                raise self.mode.parsed.error(
                    f"{rule.name} is missing its argument `{param}`", stmt)
        return values

    def expand(self, stmt, rule, args, keywords, g, target, state):
        values = self.bind(stmt, rule, args, keywords)
        self.refuse_constant_params(stmt, rule, values, self.mode.varied)
        contributions = {}   # operand -> its contributions (``x * x`` gives two)
        for param, template in rule.adjoints.items():
            atom = values.get(param)
            if not (isinstance(atom, gast.Name) and self.mode.varied(stmt, atom)):
                continue
            if rule.broadcasts and (self._may_broadcast(stmt, rule, values, param) or (
                    target not in self.mode.numbers and atom.id not in self.mode.numbers)):
                # unbroadcast also refuses a list or tuple operand of + or * (see there)
                template = f"_sg.unbroadcast({template}, {param})"
            elif rule.keeps_real_part(param) and atom.id not in self.mode.lists:
                # a real operand's cotangent is real
                template = f"_sg.match_real({template}, {param})"
            if rule.elementwise and all(self.mode.is_scalar(stmt, values[p])
                                        for p in rule.params if p in values):
                template = scalar_template(template)
            contribution = syntax.quote_expr(template, g=g, ans=target, **values)
            if _may_fold(template, (g, target, *values.values())):
                contribution = fold_constants(contribution)
            contribution = _negation_outside(contribution)   # (names given as strings)
            contributions.setdefault(atom.id, []).append(contribution)
        out = []
        for name, parts in contributions.items():
            total = _doubled(parts) or parts[0]
            for part in parts[1:] if total is parts[0] else ():
                total = gast.BinOp(left=total, op=gast.Add(), right=part)
            if name in self.mode.lists:   # an array cotangent of a list: a list again
                total = syntax.quote_expr("_sg.restructure(g, x)", g=total, x=name)
            out += self.mode.bookkeeping.accumulate(name, total, state)
        return out

    def refuse_constant_params(self, stmt, rule, values, varied):
        """A differentiated value reaching a parameter the rule has no derivative for
        (and does not declare constant) is a MissingRuleError, in both modes."""
        for param in rule.params:
            if varied(stmt, values.get(param)):
                message = rule.no_derivative(param)
                if message:
                    raise self.mode.parsed.error(message, stmt, MissingRuleError)

    def _may_broadcast(self, stmt, rule, values, param):
        """Unless every other operand is a scalar (or ``param``'s own value, as in
        ``x * x``), ``param`` may have been broadcast."""
        mine = values[param]
        others = [values[p] for p in rule.params if p != param and p in values]
        return not all(self.mode.is_scalar(stmt, o) or (
            isinstance(o, gast.Name) and o.id == mine.id) for o in others)

    def bind_user_call(self, stmt, info, params):
        """Map a user function's parameters to the call's argument atoms. Extra positional
        arguments go to its ``*args`` (bound to a tuple of atoms); extra keywords go to its
        ``**kwargs``, which must not carry derivatives."""
        import inspect

        kinds = {p.name: p.kind for p in own_signature(info.target).parameters.values()}
        named = [p for p in params if kinds[p] not in (inspect.Parameter.VAR_POSITIONAL,
                                                      inspect.Parameter.VAR_KEYWORD)]
        positional = [p for p in named if kinds[p] != inspect.Parameter.KEYWORD_ONLY]
        bound = dict(zip(positional, info.args))
        extra = list(info.args[len(positional):])
        star = [p for p in params if kinds[p] == inspect.Parameter.VAR_POSITIONAL]
        if star and extra:
            bound[star[0]] = gast.Tuple(elts=extra, ctx=gast.Load())
            extra = []
        double = [p for p in params if kinds[p] == inspect.Parameter.VAR_KEYWORD]
        spread = {}
        for key, value in info.keywords:
            if key in named:
                bound[key] = value
            elif double:
                spread[key] = value
            else:
                raise TransformError(f"{info.name}() got an unexpected keyword argument {key!r}")
        if spread:   # the callee's **kwargs: a dict of atoms
            bound[double[0]] = gast.Dict(keys=[syntax.const(k) for k in spread],
                                         values=list(spread.values()))
        if any(self.mode.varied(stmt, atom) for atom in extra):
            raise self.mode.parsed.error(
                f"a value being differentiated is passed to {info.name}() through its "
                "**kwargs, which is not supported yet; pass it as a named parameter",
                stmt)
        return bound

    def grad_name(self, stmt, param, callee):
        key = (id(stmt), param)
        if key not in self._grad_names:
            self._grad_names[key] = self.mode.namer.fresh(f"d{param}_{callee}")
        return self._grad_names[key]


def _doubled(parts):
    """``c * 2.0`` for two equal contributions (``x * x`` gives ``g * x`` twice): one
    operation fewer than ``c + c``, and the same number (doubling is exact)."""
    if len(parts) == 2 and gast.dump(parts[0]) == gast.dump(parts[1]):
        return gast.BinOp(left=parts[0], op=gast.Mult(), right=syntax.const(2.0))
    return None
