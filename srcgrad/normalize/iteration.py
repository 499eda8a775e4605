"""Loops over ``enumerate``, ``zip`` and ``reversed``, lowered to loops over a sequence
(``IterationBuiltins``, mixed into the A-normal form pass).

Before::                                    After::

    for i, v in enumerate(xs, 1):               _index = 1 - 1
        total = total + i * v                   for _item in xs:
                                                    _index = _index + 1
                                                    i, v = (_index, _item)
                                                    total = total + i * v
"""

from __future__ import annotations

import builtins

from srcgrad import syntax
from srcgrad.syntax import gast


def is_range_call(expr):
    """Is ``expr`` a call of ``range`` (kept as it is: the reverse mode reverses it)?"""
    return (isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name)
            and expr.func.id == "range" and not expr.keywords)


class IterationBuiltins:
    """Needs ``namer``, ``parsed``, ``atom``, ``assign`` and ``for_loop`` of the pass."""

    def iteration_builtin(self, stmt):
        """Loops over ``enumerate``, ``zip`` and ``reversed`` (which are not differentiable
        themselves) as loops over the sequence, so that the items carry derivatives::

            for i, v in enumerate(xs, 1):   ->   _index = 1 - 1
                                                 for _item in xs:
                                                     _index = _index + 1
                                                     i, v = (_index, _item)
            for a, b in zip(xs, ys):        ->   the same loop over xs, with (_item, ys[_index])
            for v in reversed(xs):          ->   for v in xs[::-1]

        ``zip``'s other arguments must be sequences that are indexed (names, attributes or
        subscripts: lists, tuples, arrays)."""
        call = stmt.iter
        kind = self.builtin_name(call)
        if kind is None or any(isinstance(a, gast.Starred) for a in call.args):
            return None
        if kind == "reversed":
            if len(call.args) != 1 or call.keywords or is_range_call(call.args[0]):
                return None
            backwards = gast.Slice(lower=None, upper=None, step=syntax.const(-1))
            stmt.iter = gast.Subscript(value=call.args[0], slice=backwards, ctx=gast.Load())
            return self.for_loop(stmt)
        counter, holder = self.namer.temp("index"), self.namer.temp("item")
        pre = []
        if kind == "enumerate":
            keywords = {kw.arg: kw.value for kw in call.keywords}
            if set(keywords) - {"start"} or not 1 <= len(call.args) + len(keywords) <= 2 \
                    or not call.args:
                return None
            start = call.args[1] if len(call.args) == 2 else keywords.get("start", syntax.const(0))
            first = syntax.const(start.value - 1) if isinstance(start, gast.Constant) \
                else syntax.quote_expr("start - 1", start=start)
            items = [syntax.name(counter), syntax.name(holder)]
        else:
            others = call.args[1:]
            if call.keywords or not call.args or not all(
                    isinstance(a, (gast.Name, gast.Attribute, gast.Subscript)) for a in others):
                return None
            items = [syntax.name(holder)]
            for other in others:
                other_pre, sequence = self.atom(other, "sequence")
                pre += other_pre
                items.append(gast.Subscript(value=sequence, slice=syntax.name(counter),
                                            ctx=gast.Load()))
            first = syntax.const(-1)
        from srcgrad.normalize.desugar import desugar

        head = [syntax.assign(counter, syntax.quote_expr("i + 1", i=counter)),
                syntax.assign(stmt.target, gast.Tuple(elts=items, ctx=gast.Load()))]
        syntax.set_line(head, stmt.lineno)
        loop = gast.For(target=syntax.name(holder, store=True), iter=call.args[0],
                        body=desugar(head, self.namer) + stmt.body, orelse=stmt.orelse,
                        type_comment=None)
        syntax.set_line(loop, stmt.lineno)
        return pre + self.assign(syntax.name(counter, store=True), first) + self.for_loop(loop)

    def builtin_name(self, expr):
        """``"enumerate"``, ``"zip"`` or ``"reversed"`` for a call of that builtin."""
        if not (isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name)) \
                or expr.func.id not in ("enumerate", "zip", "reversed") or self.parsed is None:
            return None
        try:
            found = self.parsed.resolve(expr.func.id)
        except KeyError:
            return None
        return expr.func.id if found is getattr(builtins, expr.func.id) else None
