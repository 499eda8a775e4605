"""Expressions that expand into statements in A-normal form: calls that are inlined,
comprehensions, chained comparisons, ``and``/``or`` and ternaries.

Before::                                  After::

    y = [f(x) for x in xs if x > 0]           _list = []
                                              for x_1 in xs:
                                                  _cond = x_1 > 0
                                                  if _cond:
                                                      _f = f(x_1)
                                                      _list.append(_f)
                                              y = _list
    t = p or q                                t = p
                                              _not = not t
                                              if _not:
                                                  t = q
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast


class ExpandingForms:
    """Methods of the A-normal-form flattener (see ``normalize.anf``) for expressions
    that become statements."""

    def inline_call(self, expr, fn, preferred=None, wrap_variables=False):
        """A call to a local (or small module-level) function becomes its body, renamed
        apart (see ``local_functions`` and ``inline``); ``wrap_variables``: its loads that
        may be Variables are wrapped, as the caller's were (an eager unit)."""
        from srcgrad.normalize import control_flow, desugar, variables
        from srcgrad.normalize.exceptions import lower_handlers
        from srcgrad.normalize.local_functions import renamed_body

        pre, args = self.atoms(expr.args)
        keywords = []
        for kw in expr.keywords:
            kw_pre, value = self.atom(kw.value)
            pre += kw_pre
            keywords.append((kw.arg, value))
        try:
            body = renamed_body(fn, self.namer, args, keywords)
        except TypeError as exc:
            raise self.parsed.error(str(exc), expr) from None
        syntax.set_line(body, getattr(expr, "lineno", None) or fn.lineno)
        body = lower_handlers(body, self.namer)
        body = control_flow.to_single_exit(desugar.desugar(body, self.namer), self.namer)
        if wrap_variables:
            body = variables.wrap_variable_reads(body, self.parsed, self.namer, True)
        result = preferred or self.namer.fresh(f"{fn.name}_result")
        return_line = body[-1].lineno or fn.lineno
        body[-1] = syntax.assign(result, body[-1].value)
        body[-1].lineno = return_line
        return pre + self.block(body), syntax.name(result)

    def comprehension(self, expr):
        """``[f(x) for x in xs if c]`` -> a loop appending to a fresh list (a dict
        comprehension writes items); the loop variables are renamed apart."""
        is_dict = isinstance(expr, gast.DictComp)
        result = self.namer.temp("dict" if is_dict else "list")
        renaming = {}
        for gen in expr.generators:
            for name in syntax.names_in(gen.target):
                renaming[name] = self.namer.fresh(name)
        if is_dict:
            key = syntax.replace_names(syntax.clone(expr.key), renaming)
            value = syntax.replace_names(syntax.clone(expr.value), renaming)
            store = gast.Subscript(value=syntax.name(result), slice=key, ctx=gast.Store())
            inner = [syntax.assign(store, value)]
        else:
            elt = syntax.replace_names(syntax.clone(expr.elt), renaming)
            inner = [gast.Expr(value=syntax.call(
                gast.Attribute(value=syntax.name(result), attr="append", ctx=gast.Load()),
                [elt]))]
        for i, gen in reversed(list(enumerate(expr.generators))):
            for cond in reversed(gen.ifs):
                inner = [gast.If(test=syntax.replace_names(syntax.clone(cond), renaming),
                                 body=inner, orelse=[])]
            iterable = gen.iter if i == 0 else syntax.replace_names(syntax.clone(gen.iter),
                                                                    renaming)
            target = syntax.replace_names(syntax.clone(gen.target), renaming)
            inner = [gast.For(target=target, iter=iterable, body=inner, orelse=[],
                              type_comment=None)]
        empty = gast.Dict(keys=[], values=[]) if is_dict else gast.List(elts=[], ctx=gast.Load())
        stmts = [syntax.assign(result, empty)] + inner
        syntax.set_line(stmts, getattr(expr, "lineno", None))
        return self.block(stmts), syntax.name(result)

    def compare(self, expr):
        if len(expr.ops) == 1:
            pre, (left, right) = self.atoms([expr.left, expr.comparators[0]])
            return pre, gast.Compare(left=left, ops=expr.ops, comparators=[right])
        # a < b < c  ->  a < b and b < c, evaluating b once.
        pre, operands = self.atoms([expr.left] + expr.comparators)
        pairs = [gast.Compare(left=operands[i], ops=[op], comparators=[operands[i + 1]])
                 for i, op in enumerate(expr.ops)]
        more, simple = self.bool_op(gast.BoolOp(op=gast.And(), values=pairs), None)
        return pre + more, simple

    def bool_op(self, expr, preferred):
        """``a and b`` -> ``t = a; if t: t = b`` (``or``: ``if not t``)."""
        result = preferred or self.namer.temp("and" if isinstance(expr.op, gast.And) else "or")
        pre, first = self.simple(expr.values[0])
        out = pre + [syntax.assign(result, first)]
        rest = expr.values[1:]
        if rest:
            tail = rest[0] if len(rest) == 1 else gast.BoolOp(op=expr.op, values=rest)
            tail_pre, tail_value = self.simple(tail)
            branch = tail_pre + [syntax.assign(result, tail_value)]
            if isinstance(expr.op, gast.And):
                out.append(gast.If(test=syntax.name(result), body=branch, orelse=[]))
            else:
                negated = self.namer.temp("not")
                out.append(syntax.assign(negated, gast.UnaryOp(op=gast.Not(),
                                                               operand=syntax.name(result))))
                out.append(gast.If(test=syntax.name(negated), body=branch, orelse=[]))
        return out, syntax.name(result)

    def if_exp(self, expr, preferred):
        result = preferred or self.namer.temp("choice")
        pre, test = self.condition(expr.test)
        body_pre, body = self.simple(expr.body)
        else_pre, orelse = self.simple(expr.orelse)
        branch = gast.If(test=test, body=body_pre + [syntax.assign(result, body)],
                         orelse=else_pre + [syntax.assign(result, orelse)])
        return pre + [branch], syntax.name(result)
