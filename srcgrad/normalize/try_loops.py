"""A ``for`` or ``while`` loop in the body of a ``try`` with handlers: the ``try`` moved inside it,
around each run of statements, so that no ``try`` body holds a loop.

An exception may stop such a loop part-way, after some iterations completed; reverse mode
records how far a ``try`` body got statement by statement (``modes.reverse_exceptions``),
which a loop's iterations would need per iteration. Split, each ``try`` body is
straight-line code again, and the loop is an ordinary loop that stops when a handler
caught an exception. ``caught`` is the flag ``normalize.exceptions`` gives the handlers.

Before (handlers already lowered to flags)::

    try:
        r = x * 2.0
        for k in range(3):
            r = r + h(k, r)
        y = r
    except ValueError:
        caught = 1

After::

    try:
        r = x * 2.0
        _iter = range(3)
    except ValueError:
        caught = 1
    if caught == 0:
        for _item in _iter:
            try:
                k = _item
                r = r + h(k, r)
            except ValueError:
                caught = 1
            if caught != 0:
                break
    if caught == 0:
        try:
            y = r
        except ValueError:
            caught = 1

The same statements run in the same order, each where an exception from it reaches the
same handler: the iterable is evaluated, and each item bound to the loop's target, inside
a ``try``. An ``if`` holding a loop is split the same way (its test evaluated in a
``try``); a loop with an ``else`` clause runs it when no exception stopped the loop.
A ``while`` loop, or a loop in a nested ``def``, ``with`` or ``try``, is left as it was
(reverse mode refuses it, naming the construct).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast


def holds_loop(body):
    """Does ``body`` hold a loop this module can split out, outside nested functions?"""
    return any(isinstance(stmt, (gast.For, gast.While)) for stmt in _splittable(body))


def _splittable(body):
    for stmt in body:
        yield stmt
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            yield from _splittable(stmt.body)
            yield from _splittable(stmt.orelse)


def split_try(body, handlers, caught, namer):
    """``body`` (of a ``try`` whose ``handlers`` set the flag ``caught``) as statements
    with no loop in any ``try`` body."""
    return _Splitter(handlers, caught, namer).block(body)


_ITERATORS = frozenset({"range", "enumerate", "zip", "reversed"})


class _Splitter:
    def __init__(self, handlers, caught, namer):
        self.handlers, self.caught, self.namer = handlers, caught, namer

    def block(self, body):
        out, run = [], []
        for stmt in body:
            if isinstance(stmt, (gast.For, gast.If, gast.While)) and holds_loop([stmt]):
                out += self.guarded(run)
                run = []
                split = {gast.For: self.loop, gast.If: self.branch, gast.While: self.while_loop}
                out += split[type(stmt)](stmt)
            else:
                run.append(stmt)
        return out + self.guarded(run)

    def not_caught(self, op=gast.Eq):
        return gast.Compare(left=syntax.name(self.caught), ops=[op()],
                            comparators=[syntax.const(0)])

    def guarded(self, run, first=False):
        """``run`` in a ``try`` with the handlers, skipped once one caught an exception."""
        if not run:
            return []
        handlers = [syntax.clone(handler) for handler in self.handlers]
        attempt = gast.Try(body=run, handlers=handlers, orelse=[], finalbody=[])
        syntax.set_line([attempt], run[0].lineno)
        guard = gast.If(test=self.not_caught(), body=[attempt], orelse=[])
        syntax.set_line([guard], run[0].lineno)
        return [guard]

    def loop(self, stmt):
        evaluate, iterable = self.iterable(stmt.iter)
        item = self.namer.fresh("item")
        bind = syntax.assign(stmt.target, syntax.name(item))
        syntax.set_line(evaluate + [bind], stmt.lineno)
        stop = gast.If(test=self.not_caught(gast.NotEq), body=[gast.Break()], orelse=[])
        syntax.set_line([stop], stmt.lineno)
        body = self.block([bind] + stmt.body) + [stop]
        new = gast.For(target=syntax.name(item, store=True), iter=iterable,
                       body=body, orelse=self.block(stmt.orelse), type_comment=None)
        syntax.set_line([new], stmt.lineno)
        run = gast.If(test=self.not_caught(), body=[new], orelse=[])
        syntax.set_line([run], stmt.lineno)
        return self.guarded(evaluate) + [run]

    def while_loop(self, stmt):
        """``while test: body`` -> ``while True:`` evaluating the test in a ``try``
        first (a ``continue`` in the body comes back to it), leaving when it is false
        or a handler caught an exception; an ``else`` clause runs after it when the test
        ended it."""
        test = self.namer.fresh("test")
        evaluate = syntax.assign(test, stmt.test)
        stop = gast.If(test=self.not_caught(gast.NotEq), body=[gast.Break()], orelse=[])
        done = gast.If(test=gast.UnaryOp(op=gast.Not(), operand=syntax.name(test)),
                       body=[gast.Break()], orelse=[])
        before, after = [], []
        if stmt.orelse:
            ended = self.namer.fresh("ended")
            before = [syntax.assign(ended, syntax.const(False))]
            done.body.insert(0, syntax.assign(ended, syntax.const(True)))
            after = [gast.If(test=syntax.name(ended), body=self.block(stmt.orelse),
                             orelse=[])]
        syntax.set_line([evaluate, stop, done] + before + after, stmt.lineno)
        body = self.guarded([evaluate]) + [stop, done] + self.block(stmt.body) \
            + [syntax.clone(stop)]
        new = gast.While(test=syntax.const(True), body=body, orelse=[])
        syntax.set_line([new], stmt.lineno)
        run = gast.If(test=self.not_caught(), body=before + [new] + after, orelse=[])
        syntax.set_line([run], stmt.lineno)
        return [run]

    def iterable(self, expr):
        """The statements evaluating ``expr`` (in the ``try``) and what the loop iterates
        over. ``range``/``enumerate``/``zip``/``reversed`` stay in the loop (the modes
        read a loop over them as such), their arguments evaluated first."""
        if isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name) \
                and expr.func.id in _ITERATORS and not expr.keywords \
                and not any(isinstance(a, gast.Starred) for a in expr.args):
            evaluate, args = [], []
            for arg in expr.args:
                if isinstance(arg, (gast.Name, gast.Constant)):
                    args.append(arg)
                    continue
                temp = self.namer.fresh("arg")
                evaluate.append(syntax.assign(temp, arg))
                args.append(syntax.name(temp))
            return evaluate, gast.Call(func=expr.func, args=args, keywords=[])
        temp = self.namer.fresh("iter")
        return [syntax.assign(temp, expr)], syntax.name(temp)

    def branch(self, stmt):
        test = self.namer.fresh("test")
        evaluate = syntax.assign(test, stmt.test)
        syntax.set_line([evaluate], stmt.lineno)
        taken = gast.If(test=syntax.name(test), body=self.block(stmt.body),
                        orelse=self.block(stmt.orelse))
        syntax.set_line([taken], stmt.lineno)
        run = gast.If(test=self.not_caught(), body=[taken], orelse=[])
        syntax.set_line([run], stmt.lineno)
        return self.guarded([evaluate]) + [run]
