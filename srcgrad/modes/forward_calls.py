"""Forward mode for calls (the methods ``ForwardMode`` gets from ``ForwardCalls``).

Before::                          After::

    y = g(a, b)                       y, y_dot = g_jvp(a, b, a_dot=a_dot)
    z = fn(a)                         z, z_dot = _sg.dynamic_jvp(fn, None, (a,), (a_dot,))
    lst.append(a)                     lst.append(a); lst_dot.append(a_dot)
"""

from __future__ import annotations

import dataclasses

from srcgrad import syntax
from srcgrad.frontend.freshness import own_signature
from srcgrad.modes.calls import (
    classify_call,
    generated_variant,
    guard_escaping_callee,
    missing_rule_error,
    structure_fields,
)
from srcgrad.modes.reverse_containers import bind_fields
from srcgrad.syntax import gast

LIST_METHODS = {"append", "extend", "insert", "pop", "reverse"}


class ForwardCalls:
    """Calls for ``ForwardMode``: a rule row's tangent, a user function's generated ``jvp``,
    a call through a value (``_sg.dynamic_jvp``), a structure's fields, a list method
    mirrored on the tangent list."""

    def call_info(self, call):
        info = classify_call(self.parsed, call, self.locals, self.arrays, self.instances,
                                 self.proven_dicts, self.namespaces)
        specialized = generated_variant(info.target)
        if specialized is not None:
            info = dataclasses.replace(info, kind="user", target=specialized)
        return info

    def call_tangent(self, stmt, target, call, state):
        func = call.func
        if isinstance(func, gast.Attribute) and func.attr in LIST_METHODS \
                and self.list_receiver(func.value):
            if func.value.id not in state:
                return None
            return self.mirrored_call(call, state)
        info = self.call_info(call)
        if info.kind == "nondiff":
            return None
        if info.kind == "rule":
            return self.rules.expand(stmt, info, call, target, state)
        if info.kind == "structure":
            return self.structure_tangent(stmt, info, call, state)
        raise missing_rule_error(self.parsed, info, stmt, forward=True)

    def list_receiver(self, value):
        """Is ``value`` a local whose ``.append()``, ``.pop()``... are a list's (not an
        object's of a class, ``self.instances``)?"""
        return isinstance(value, gast.Name) and value.id in self.locals \
            and value.id not in self.instances

    def structure_tangent(self, stmt, info, call, state):
        """``p = Point(a, y=b)`` -> ``Point(a_dot, y=b_dot, z=_sg.zeros_like(p.z))``: zeros
        for constant fields, and for each field left at its default (the default is the
        field's value, not its tangent)."""
        bound = bind_fields(self.parsed, stmt, info)   # refuses *args / **kwargs
        new = syntax.clone(call)
        new.args = [self.tangent_or_zero(a, state) for a in call.args]
        for keyword in new.keywords:
            keyword.value = self.tangent_or_zero(keyword.value, state)
        given = {name for _, name, _ in bound}
        target = stmt.targets[0] if isinstance(stmt, gast.Assign) else None
        for name in structure_fields(info.target):
            if name not in given:
                if not isinstance(target, gast.Name):
                    raise self.parsed.error(f"a field of `{info.name}` left at its default "
                                            "is differentiated only in an assignment", stmt)
                field = gast.Attribute(value=syntax.name(target.id), attr=name,
                                       ctx=gast.Load())
                new.keywords.append(gast.keyword(arg=name, value=syntax.quote_expr(
                    "_sg.zeros_like(v)", v=field)))
        return new

    def mirrored_call(self, call, state):
        """``base.method(args)`` on the tangents: ``base_dot.method(args_dot)``."""
        new = syntax.clone(call)
        new.func.value = syntax.name(self.tangent(call.func.value.id))
        if call.func.attr in ("append", "extend"):
            new.args = [self.tangent_or_zero(a, state) for a in call.args]
        elif call.func.attr == "insert":
            new.args = [call.args[0]] + [self.tangent_or_zero(a, state) for a in call.args[1:]]
        return new

    def user_call(self, stmt, info, target, call, state):
        """``y = g(a, b)`` -> ``y, y_dot = g_jvp(a, b, a_dot=...)``."""

        params = list(own_signature(info.target).parameters)
        bound = self.reverse_rules.bind_user_call(stmt, info, params)
        wrt = tuple(p for p in params if p in bound and self.carries(bound[p], state))
        name, keywords = self.callee_jvp(info.target, wrt)
        kept = getattr(self.callee_jvp, "escaping", {}).get(info.target)
        before, after = guard_escaping_callee(
            self.parsed, stmt, info.name, kept, self.read_back(state), self.escapes,
            self.namer) if kept else ([], [])
        new = syntax.clone(call)
        new.func = syntax.name(name)
        new.keywords = list(new.keywords) + [
            gast.keyword(arg=keywords[p], value=self.bound_tangent(bound[p], state))
            for p in wrt]
        state.tangents.pop(target, None)
        state.tangents[target] = False
        targets = syntax.tuple_of([syntax.name(target, True),
                                   syntax.name(self.tangent(target), True)], store=True)
        return before + [syntax.assign(targets, new)] + after

    def bound_tangent(self, atoms, state):
        """The tangent of a callee's parameter: of one atom, or a tuple (its ``*args``) or
        dict (its ``**kwargs``) of them."""
        if isinstance(atoms, gast.Tuple):
            return syntax.tuple_of([self.tangent_or_zero(a, state) for a in atoms.elts])
        if isinstance(atoms, gast.Dict):
            return gast.Dict(keys=[syntax.clone(k) for k in atoms.keys],
                             values=[self.tangent_or_zero(v, state) for v in atoms.values])
        return syntax.name(self.tangent(atoms.id))

    def dynamic_call(self, stmt, info, target, call, state):
        """``y = fn(a, b)`` with ``fn`` known when it runs -> ``y, y_dot =
        _sg.dynamic_jvp(fn, owner_dot, (a, b), (a_dot, None))`` (see srcgrad.compiler.dispatch)."""
        owner = info.owner
        owner_dot = syntax.name(self.tangent(owner.id)) if isinstance(owner, gast.Name) \
            and owner.id in state else syntax.const(None)
        tangents = [self.argument_tangent(a, state) for a in call.args]
        args = [call.func, owner_dot, _args_tuple(list(call.args)), _args_tuple(tangents)]
        if any(self.carries(kw.value, state) for kw in call.keywords):
            # f(x, b=y, **kw): the keywords and their tangents as two dicts
            dots = [self.keyword_tangent(kw, state) for kw in call.keywords]
            new = gast.Call(func=syntax.quote_expr("_sg.dynamic_jvp_keywords"),
                            args=args + [_keywords_dict(call.keywords,
                                                        [kw.value for kw in call.keywords]),
                                         _keywords_dict(call.keywords, dots)],
                            keywords=[])
        else:
            new = gast.Call(func=syntax.quote_expr("_sg.dynamic_jvp"), args=args,
                            keywords=call.keywords)
        state.tangents.pop(target, None)
        state.tangents[target] = False
        targets = syntax.tuple_of([syntax.name(target, True),
                                   syntax.name(self.tangent(target), True)], store=True)
        return [syntax.assign(targets, new)]

    def keyword_tangent(self, kw, state):
        """The tangent passed for one keyword of a dynamic call: ``**kw`` passes a dict
        of them (``_sg.keyword_tangents``)."""
        if kw.arg is None:
            dot = syntax.name(self.tangent(kw.value.id)) if kw.value.id in state \
                else syntax.const(None)
            return syntax.quote_expr("_sg.keyword_tangents(d, kw)", d=dot, kw=kw.value)
        return self.argument_tangent(kw.value, state)

    def argument_tangent(self, arg, state):
        """The tangent passed for one argument of a dynamic call (None: it has none);
        ``*xs`` passes one per item (``_sg.item_tangents``)."""
        if isinstance(arg, gast.Starred):
            dot = syntax.name(self.tangent(arg.value.id)) if arg.value.id in state \
                else syntax.const(None)
            return gast.Starred(value=syntax.quote_expr("_sg.item_tangents(d, xs)", d=dot,
                                                        xs=arg.value), ctx=gast.Load())
        if isinstance(arg, gast.Name) and arg.id in state:
            return syntax.name(self.tangent(arg.id))
        return syntax.const(None)


def _args_tuple(items):
    """The tuple of a call's arguments (or of their tangents): ``(a, b)``; with one
    ``*xs`` among them ``_sg.joined_args((a,), xs, (b,))``, a call that generated code
    differentiated again reads through its row (a starred item in a tuple display is
    not differentiated)."""
    starred = [i for i, item in enumerate(items) if isinstance(item, gast.Starred)]
    if len(starred) != 1:
        return syntax.tuple_of(items)
    at = starred[0]
    return syntax.quote_expr("_sg.joined_args(head, xs, tail)",
                             head=syntax.tuple_of(items[:at]), xs=items[at].value,
                             tail=syntax.tuple_of(items[at + 1:]))


def _keywords_dict(keywords, values):
    """A call's keywords as one dict expression, ``values[i]`` for ``keywords[i]``: a
    dict literal of the named ones, each ``**kw`` merged in with ``_sg.merged_keywords``
    (a row; ``{**kw}`` is not Python srcgrad compiles, and this code may be compiled
    again)."""
    named = [(syntax.const(kw.arg), value) for kw, value in zip(keywords, values)
             if kw.arg is not None]
    spreads = [value for kw, value in zip(keywords, values) if kw.arg is None]
    merged = gast.Dict(keys=[k for k, _ in named], values=[v for _, v in named])
    if spreads and not named:
        merged, spreads = syntax.clone(spreads[0]), spreads[1:]
    for spread in spreads:
        merged = syntax.quote_expr("_sg.merged_keywords(a, b)", a=merged, b=spread)
    return merged
