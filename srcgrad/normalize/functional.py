"""Builtins that take a function as a value, written out as the loops they run:
``map``, ``filter``, ``functools.reduce`` and ``sorted(..., key=...)``; ``max`` and
``min`` of one sequence or of more than two values, as the folds of the two-argument
form they compute. The function is
then called once per item like any other call (a rule, a user function, or a value
resolved when it runs), so its derivative flows.

Before::                                  After::

    ys = map(f, xs)                           _f = f
                                              ys = [_f(v) for v in xs]   (then a loop)
    s = functools.reduce(g, xs, 0.0)          s = 0.0
                                              for v in xs:
                                                  s = g(s, v)
    zs = sorted(xs, key=k)                    _items = list(xs)
                                              _order = _sg.sorted_order(_items, k)
                                              zs = [_items[i] for i in _order]
    m = max(xs)                               m = xs[0]
                                              for v in xs[1:]:
                                                  m = max(m, v)
    m = min(a, b, c)                          m = min(min(a, b), c)

A function of the ``operator`` module called with its operands (``operator.add(a, b)``,
``f(a, b)`` where ``f`` is ``operator.mul``) is the operator itself: ``a + b``.

``map`` gives a list (an iterator in Python): code that consumes it once, as nearly all
code does, cannot tell. ``sorted`` reads its items by position from a list of them, so it
sorts any iterable as Python does (a dict's keys, ``d.items()``, a generator).
"""

from __future__ import annotations

import builtins
import functools
import operator

from srcgrad import syntax
from srcgrad.syntax import gast


class FunctionalBuiltins:
    """Methods of the A-normal-form flattener (see ``normalize.anf``)."""

    def functional_call(self, expr):
        """``(statements, atom)`` for a call of ``map``/``filter``/``reduce``/``sorted``
        with a function argument, else None."""
        kind = self._functional_kind(expr.func)
        if kind is None or any(isinstance(a, gast.Starred) for a in expr.args):
            return None
        if isinstance(kind, tuple):
            return self._operator(kind, expr)
        if kind in ("map", "filter") and not expr.keywords and len(expr.args) >= 2 \
                and (kind == "map" or len(expr.args) == 2):
            return self._map_or_filter(kind, expr)
        if kind == "reduce" and not expr.keywords and len(expr.args) in (2, 3):
            return self._reduce(expr)
        if kind == "sorted" and len(expr.args) == 1 \
                and all(kw.arg in ("key", "reverse") for kw in expr.keywords):
            return self._sorted(expr)
        if kind in ("max", "min") and not expr.keywords and len(expr.args) != 2:
            return self._extreme(expr)
        return None

    def _functional_kind(self, func):
        dotted = syntax.dotted_name(func)
        if dotted is None or self.parsed is None:
            return None
        if dotted.split(".")[0] in self._bound_locally():
            return None
        try:
            obj = self.parsed.resolve(dotted)
        except KeyError:
            return None
        kinds = {builtins.map: "map", builtins.filter: "filter", functools.reduce: "reduce",
                 builtins.sorted: "sorted", builtins.max: "max", builtins.min: "min"}
        try:
            kind = kinds.get(obj) or _OPERATORS.get(obj)
        except TypeError:   # an unhashable value
            return None
        if kind is not None:
            self.parsed.assume(dotted)
        return kind

    def _bound_locally(self):
        """The names the function binds (parameters and assignments), found once per
        flattener rather than once per call (a walk of the whole function)."""
        if getattr(self, "_local_names", None) is None:
            node = self.parsed.node
            self._local_names = set(syntax.names_in(node, gast.Store)) \
                | set(syntax.param_names(node.args))
        return self._local_names

    def _partial_parts(self, fn):
        """``(statements, function, bound atoms, bound keywords)`` when ``fn`` is written
        ``functools.partial(g, a, k=b)`` with ``g`` a name: its bound values evaluated
        once, where the partial was made (into atoms), then given to each call of ``g``;
        else None."""
        if not (isinstance(fn, gast.Call) and fn.args and syntax.dotted_name(fn.args[0])
                and not any(isinstance(a, gast.Starred) for a in fn.args)
                and all(k.arg is not None for k in fn.keywords)):
            return None
        dotted = syntax.dotted_name(fn.func)
        if dotted is None or dotted.split(".")[0] in self._bound_locally():
            return None
        try:
            if self.parsed.resolve(dotted) is not functools.partial:
                return None
        except KeyError:
            return None
        self.parsed.assume(dotted)
        pre, bound = self.atoms(fn.args[1:])
        keywords = []
        for kw in fn.keywords:
            kw_pre, value = self.atom(kw.value)
            pre += kw_pre
            keywords.append(gast.keyword(arg=kw.arg, value=value))
        return pre, fn.args[0], bound, keywords

    def _map_or_filter(self, kind, expr):
        partial = self._partial_parts(expr.args[0])
        if partial is not None:
            partial_pre, fn, bound, bound_keywords = partial
            pre, iterables = self.atoms(expr.args[1:])
            pre = partial_pre + pre
        elif self._is_operator(expr.args[0]):   # called as the operator (no temporary)
            pre, iterables = self.atoms(expr.args[1:])
            fn, bound, bound_keywords = syntax.clone(expr.args[0]), [], []
        else:
            pre, (fn, *iterables) = self.atoms(expr.args)
            bound, bound_keywords = [], []
        items = [syntax.name(self.namer.fresh("item")) for _ in iterables]
        target = items[0] if len(items) == 1 else syntax.tuple_of(items)
        source = iterables[0] if len(iterables) == 1 else syntax.call(
            syntax.name("zip"), iterables)
        called = syntax.call(fn, [syntax.clone(a) for a in bound]
                             + [syntax.clone(i) for i in items])
        called.keywords = [gast.keyword(arg=k.arg, value=syntax.clone(k.value))
                           for k in bound_keywords]
        if kind == "map":
            elt, ifs = called, []
        else:
            elt = syntax.clone(items[0])
            ifs = [called if not _is_none(fn) else syntax.clone(items[0])]
        comp = gast.ListComp(elt=elt, generators=[gast.comprehension(
            target=_stored(target), iter=source, ifs=ifs, is_async=0)])
        syntax.set_line([comp], getattr(expr, "lineno", None))
        comp_pre, atom = self.comprehension(comp)
        return pre + comp_pre, atom

    def _reduce(self, expr):
        partial = self._partial_parts(expr.args[0])
        if partial is not None:   # (its bound keywords: given to every call)
            partial_pre, fn, bound, bound_keywords = partial
            pre, args = self.atoms(expr.args[1:])
            pre, args = partial_pre + pre, [fn] + args
        elif self._is_operator(expr.args[0]):   # called as the operator (no temporary)
            pre, args = self.atoms(expr.args[1:])
            args = [syntax.clone(expr.args[0])] + args
            bound, bound_keywords = [], []
        else:
            pre, args = self.atoms(expr.args)
            bound, bound_keywords = [], []
        fn, iterable = args[0], args[1]
        acc = self.namer.fresh("reduced")
        item = self.namer.fresh("item")
        stmts = []
        if len(args) == 3:
            stmts.append(syntax.assign(acc, args[2]))
            loop_iter = iterable
        else:   # the first item starts the reduction
            rest = self.namer.fresh("rest")
            stmts += syntax.quote("ACC = XS[0]\nREST = XS[1:]", ACC=acc, XS=iterable,
                                  REST=rest)
            loop_iter = syntax.name(rest)
        step = syntax.call(fn, [syntax.clone(a) for a in bound]
                           + [syntax.name(acc), syntax.name(item)])
        step.keywords = [gast.keyword(arg=k.arg, value=syntax.clone(k.value))
                         for k in bound_keywords]
        body = [syntax.assign(acc, step)]
        stmts.append(gast.For(target=syntax.name(item, True), iter=loop_iter, body=body,
                              orelse=[], type_comment=None))
        syntax.set_line(stmts, getattr(expr, "lineno", None))
        return pre + self.block(stmts), syntax.name(acc)

    def _extreme(self, expr):
        """``max(xs)`` as ``m = xs[0]`` then ``m = max(m, v)`` over ``xs[1:]`` (an empty
        ``xs`` raises IndexError); ``max(a, b, c)`` as ``max(max(a, b), c)``."""
        pre, args = self.atoms(expr.args)
        acc = self.namer.fresh(expr.func.id if isinstance(expr.func, gast.Name) else "m")
        if len(args) == 1:
            item, rest = self.namer.fresh("item"), self.namer.fresh("rest")
            stmts = syntax.quote("ACC = XS[0]\nREST = XS[1:]", ACC=acc, XS=args[0],
                                 REST=rest)
            pair = syntax.call(syntax.clone(expr.func), [syntax.name(acc), syntax.name(item)])
            stmts.append(gast.For(target=syntax.name(item, True), iter=syntax.name(rest),
                                  body=[syntax.assign(acc, pair)], orelse=[],
                                  type_comment=None))
        else:
            stmts = [syntax.assign(acc, args[0])]
            for arg in args[1:]:
                stmts.append(syntax.assign(acc, syntax.call(
                    syntax.clone(expr.func), [syntax.name(acc), arg])))
        syntax.set_line(stmts, getattr(expr, "lineno", None))
        return pre + self.block(stmts), syntax.name(acc)

    def _sorted(self, expr):
        pre, (iterable,) = self.atoms(expr.args)
        keywords = []
        for kw in expr.keywords:
            kw_pre, value = self.atom(kw.value)
            pre += kw_pre
            keywords.append(gast.keyword(arg=kw.arg, value=value))
        items, order = self.namer.temp("items"), self.namer.temp("order")
        listed = gast.Call(func=syntax.name("list"), args=[iterable], keywords=[])
        call = gast.Call(func=syntax.quote_expr("_sg.sorted_order"),
                         args=[syntax.name(items)], keywords=keywords)
        index = self.namer.fresh("i")
        comp = gast.ListComp(
            elt=gast.Subscript(value=syntax.name(items), slice=syntax.name(index),
                               ctx=gast.Load()),
            generators=[gast.comprehension(target=syntax.name(index, True),
                                           iter=syntax.name(order), ifs=[], is_async=0)])
        stmts = [syntax.assign(items, listed), syntax.assign(order, call)]
        syntax.set_line(stmts + [comp], getattr(expr, "lineno", None))
        comp_pre, atom = self.comprehension(comp)
        return pre + stmts + comp_pre, atom


    def _is_operator(self, fn):
        return isinstance(fn, (gast.Name, gast.Attribute)) and \
            isinstance(self._functional_kind(fn), tuple)

    def _operator(self, kind, expr):
        """``operator.add(a, b)`` as ``a + b`` (``operator.neg(a)`` as ``-a``); any
        other form of the call stays a call."""
        arity, op = kind
        if expr.keywords or len(expr.args) != arity:
            return self.call(expr)
        if arity == 1:
            return self.simple(gast.UnaryOp(op=op(), operand=expr.args[0]))
        return self.simple(gast.BinOp(left=expr.args[0], op=op(), right=expr.args[1]))


# Functions of the ``operator`` module that are a Python operator: (arity, gast operator).
_OPERATORS = {
    operator.add: (2, gast.Add), operator.sub: (2, gast.Sub), operator.mul: (2, gast.Mult),
    operator.truediv: (2, gast.Div), operator.floordiv: (2, gast.FloorDiv),
    operator.mod: (2, gast.Mod), operator.pow: (2, gast.Pow),
    operator.matmul: (2, gast.MatMult), operator.neg: (1, gast.USub),
    operator.pos: (1, gast.UAdd),
}


def _is_none(node):
    return isinstance(node, gast.Constant) and node.value is None


def _stored(target):
    target = syntax.clone(target)
    for node in gast.walk(target):
        if isinstance(node, (gast.Name, gast.Tuple)):
            node.ctx = gast.Store()
    return target
