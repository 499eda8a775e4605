"""``enumerate``, ``zip`` and ``reversed``, in loops and as values, lowered to indexing
(``IterationBuiltins``, mixed into the A-normal form pass): the items then carry
derivatives, whatever expressions the arguments are.

Before::                                    After::

    for i, v in enumerate(xs, 1):               _index = 1 - 1
        total = total + i * v                   for _item in xs:
                                                    _index = _index + 1
                                                    i, v = (_index, _item)
                                                    total = total + i * v

    for a, b in zip(xs, ys * 2.0):              _mul = ys * 2.0
        total = total + a * b                   _count = _sg.zip_length(xs, _mul, line=3)
                                                for _index in range(_count):
                                                    a, b = (xs[_index], _mul[_index])
                                                    total = total + a * b

    ys = reversed(xs)                           ys = xs[::-1]
    pairs = list(zip(xs, ys))                   pairs = list([(xs[i], ys[i]) for i in
                                                              range(_sg.zip_length(xs, ys))])
    table = dict(zip(names, xs))                table = {names[i]: xs[i] for i in range(...)}
    params = dict(w=w, b=b)                     params = {'w': w, 'b': b}
    columns = zip(*rows)                        columns = [tuple([r[i] for r in rows]) for i in
                                                           range(_sg.zip_length(*rows))]

``_sg.zip_length`` refuses arguments that are not sequences (a dict indexed by position
would give other items) and checks ``strict=True``.
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
    """Needs ``namer``, ``parsed``, ``atom``, ``atoms``, ``assign``, ``block``, ``simple``
    and ``for_loop`` of the pass."""

    def iteration_builtin(self, stmt):
        """A loop over ``enumerate``, ``zip`` or ``reversed`` (not differentiable
        themselves) as a loop over the sequence or its positions (see the module doc)."""
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
        if kind == "zip":
            pre, sequences, count = self.zip_count(call)
            counter = self.namer.temp("index")
            items = [self.item(sequence, counter) for sequence in sequences]
            loop = self.indexed_loop(stmt, counter, count, items)
            return pre + self.for_loop(loop)
        start = self.enumerate_start(call)
        counter, holder = self.namer.temp("index"), self.namer.temp("item")
        first = syntax.const(start.value - 1) if isinstance(start, gast.Constant) \
            else syntax.quote_expr("start - 1", start=start)
        head = [syntax.assign(counter, syntax.quote_expr("i + 1", i=counter)),
                syntax.assign(stmt.target, gast.Tuple(
                    elts=[syntax.name(counter), syntax.name(holder)], ctx=gast.Load()))]
        loop = self.loop_with_head(stmt, syntax.name(holder, store=True), call.args[0], head)
        return self.assign(syntax.name(counter, store=True), first) + self.for_loop(loop)

    def iteration_value(self, call):
        """``zip(...)``/``enumerate(...)`` used as a value (``list(zip(xs, ys))``): the
        list of its items, built by a comprehension over positions; ``dict(zip(ks, vs))``
        the dict. None when ``call`` is neither."""
        kind = self.builtin_name(call)
        if kind == "dict":
            display = self.dict_display(call)
            if display is not None:
                return self.simple(display)
        if kind == "dict" and len(call.args) == 1 and not call.keywords \
                and self.builtin_name(call.args[0]) == "zip" and len(call.args[0].args) == 2 \
                and not any(isinstance(a, gast.Starred) for a in call.args[0].args):
            pre, (keys, values), count = self.zip_count(call.args[0])
            index = self.namer.temp("index")
            comp = gast.DictComp(key=self.item(keys, index), value=self.item(values, index),
                                 generators=[self.positions(index, count)])
            return self.with_pre(pre, comp)
        if kind == "zip" and len(call.args) == 1 and isinstance(call.args[0], gast.Starred) \
                and not call.keywords:
            return self.transposed(call)
        if kind not in ("zip", "enumerate", "reversed") or any(isinstance(a, gast.Starred)
                                                                for a in call.args):
            return None
        if kind == "reversed":
            if len(call.args) != 1 or call.keywords or is_range_call(call.args[0]):
                return None
            backwards = gast.Slice(lower=None, upper=None, step=syntax.const(-1))
            return self.simple(gast.Subscript(value=call.args[0], slice=backwards,
                                              ctx=gast.Load()))
        index = self.namer.temp("index")
        if kind == "zip":
            pre, sequences, count = self.zip_count(call)
            items = [self.item(sequence, index) for sequence in sequences]
        else:
            start = self.enumerate_start(call)
            pre, sequence = self.atom(call.args[0], "sequence")
            count = self.count_of(pre, [sequence], None, call)
            position = syntax.name(index) if isinstance(start, gast.Constant) \
                and start.value == 0 else gast.BinOp(left=syntax.name(index), op=gast.Add(),
                                                     right=start)
            items = [position, self.item(sequence, index)]
        comp = gast.ListComp(elt=gast.Tuple(elts=items, ctx=gast.Load()),
                             generators=[self.positions(index, count)])
        return self.with_pre(pre, comp)

    @staticmethod
    def dict_display(call):
        """``dict(a=x, b=y)`` -> ``{'a': x, 'b': y}``; ``dict([(k, v), ...])`` and
        ``dict((k, v) for ...)``, pairs written out, -> a dict display or comprehension.
        None for any other ``dict(...)`` (a value that may be a dict or pairs is left to
        the rule table)."""
        if not call.args and all(kw.arg is not None for kw in call.keywords):
            return gast.Dict(keys=[syntax.const(kw.arg) for kw in call.keywords],
                             values=[kw.value for kw in call.keywords])
        if len(call.args) != 1 or call.keywords:
            return None
        pairs = call.args[0]
        if isinstance(pairs, (gast.List, gast.Tuple)) and all(
                isinstance(p, gast.Tuple) and len(p.elts) == 2 for p in pairs.elts):
            return gast.Dict(keys=[p.elts[0] for p in pairs.elts],
                             values=[p.elts[1] for p in pairs.elts])
        if isinstance(pairs, (gast.ListComp, gast.GeneratorExp)) \
                and isinstance(pairs.elt, gast.Tuple) and len(pairs.elt.elts) == 2:
            return gast.DictComp(key=pairs.elt.elts[0], value=pairs.elt.elts[1],
                                 generators=pairs.generators)
        return None

    def transposed(self, call):
        """``zip(*rows)``: the list of tuples of the rows' items at each position."""
        pre, rows = self.atom(call.args[0].value, "rows")
        count = self.namer.temp("count")
        length = syntax.quote_expr("_sg.zip_length(*rows, line=n)", rows=rows,
                                   n=syntax.const(getattr(call, "lineno", None)))
        pre.append(syntax.assign(count, length))
        index, row = self.namer.temp("index"), self.namer.temp("row")
        column = gast.ListComp(elt=self.item(syntax.name(row), index), generators=[
            gast.comprehension(target=syntax.name(row, store=True), iter=syntax.clone(rows),
                               ifs=[], is_async=0)])
        comp = gast.ListComp(elt=syntax.call("tuple", [column]),
                             generators=[self.positions(index, count)])
        return self.with_pre(pre, comp)

    def zip_count(self, call):
        """Statements binding ``zip``'s arguments (in order) and their common length."""
        keywords = {kw.arg: kw.value for kw in call.keywords}
        if set(keywords) - {"strict"}:
            raise self.parsed.error("zip() takes only the keyword `strict`", call)
        pre, sequences = self.atoms(call.args)
        count = self.count_of(pre, sequences, keywords.get("strict"), call)
        return pre, sequences, count

    def count_of(self, pre, sequences, strict, call):
        """Append ``_count = _sg.zip_length(...)`` to ``pre``; return ``_count``."""
        keywords = [gast.keyword(arg="line", value=syntax.const(getattr(call, "lineno", None)))]
        if strict is not None:
            strict_pre, strict = self.atom(strict)
            pre += strict_pre
            keywords.insert(0, gast.keyword(arg="strict", value=strict))
        count = self.namer.temp("count")
        length = syntax.quote_expr("_sg.zip_length()")
        length.args, length.keywords = [syntax.clone(s) for s in sequences], keywords
        pre.append(syntax.assign(count, length))
        return count

    def enumerate_start(self, call):
        keywords = {kw.arg: kw.value for kw in call.keywords}
        if set(keywords) - {"start"} or not 1 <= len(call.args) + len(keywords) <= 2 \
                or not call.args:
            raise self.parsed.error("enumerate() takes an iterable and a start", call)
        return call.args[1] if len(call.args) == 2 else keywords.get("start", syntax.const(0))

    @staticmethod
    def item(sequence, index):
        return gast.Subscript(value=syntax.clone(sequence), slice=syntax.name(index),
                              ctx=gast.Load())

    @staticmethod
    def positions(index, count):
        return gast.comprehension(target=syntax.name(index, store=True),
                                  iter=syntax.call("range", [syntax.name(count)]),
                                  ifs=[], is_async=0)

    def with_pre(self, pre, value):
        value_pre, simple = self.simple(value)
        return pre + value_pre, simple

    def indexed_loop(self, stmt, counter, count, items):
        head = [syntax.assign(stmt.target, gast.Tuple(elts=items, ctx=gast.Load()))]
        return self.loop_with_head(stmt, syntax.name(counter, store=True),
                                   syntax.call("range", [syntax.name(count)]), head)

    def loop_with_head(self, stmt, target, iterable, head):
        from srcgrad.normalize.desugar import desugar

        syntax.set_line(head, stmt.lineno)
        loop = gast.For(target=target, iter=iterable, body=desugar(head, self.namer) + stmt.body,
                        orelse=stmt.orelse, type_comment=None)
        syntax.set_line(loop, stmt.lineno)
        return loop

    def builtin_name(self, expr):
        """``"enumerate"``, ``"zip"``, ``"reversed"`` or ``"dict"`` for a call of that
        builtin."""
        if not (isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name)) \
                or expr.func.id not in ("enumerate", "zip", "reversed", "dict") \
                or self.parsed is None:
            return None
        try:
            found = self.parsed.resolve(expr.func.id)
        except KeyError:
            return None
        return expr.func.id if found is getattr(builtins, expr.func.id) else None
