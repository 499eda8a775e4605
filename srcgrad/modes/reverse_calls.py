"""Calls to other user code in reverse mode: each becomes a call of the callee's
generated forward function (which also returns what its backward needs) and, in the
backward sweep, of its generated backward function.

Before::

    y = helper(x, w)
    z = self.layer(x)     # a method: known only when it runs

After (forward sweep, then backward sweep)::

    y, helper_saved = helper_forward(x, w)
    z, layer_saved = _sg.dynamic_forward(self.layer, False, x)
    ...
    (darg0_call,) = _sg.dynamic_backward(layer_saved, dz)
    dx_helper, dw_helper = helper_backward(helper_saved, dy)

A *static* callee (a function the name denotes at compile time) is compiled with the
caller, w.r.t. the parameters whose arguments carry derivatives. A *dynamic* callee (a
method of an object, an object with ``__call__`` passed in) is looked up when it runs;
the runtime compiles it w.r.t. every argument (and the object itself when it carries
derivatives: its attributes then get cotangents, like any container).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.frontend.freshness import own_signature
from srcgrad.syntax import gast


class CallExpander:
    def __init__(self, mode):
        self.mode = mode
        self._residuals = {}

    # -- forward sweep -------------------------------------------------------------------
    def forward(self, stmt, info, target):
        """``target, saved = <callee forward>(...)``, saved per iteration inside loops."""
        mode = self.mode
        value = stmt.value
        before = after = []
        if info.kind == "user":
            fwd_name, _ = mode.callee_names(info.target, self.wrt(stmt, info)[2])
            mode.callees.append(info.target)
            call = gast.Call(func=syntax.name(fwd_name), args=value.args,
                             keywords=value.keywords)
            before, after = mode.container_adjoints.guard_escaping_callee(stmt, info)
        else:
            helper = "_sg.dynamic_forward_eager" if mode.eager else "_sg.dynamic_forward"
            if self.keywords_vary(stmt):
                helper += "_keywords"
            owner = self.dynamic_owner(stmt, info)
            flag = syntax.const(owner is not None and mode.varied(stmt, owner))
            call = gast.Call(func=syntax.quote_expr(helper),
                             args=[value.func, flag] + list(value.args),
                             keywords=value.keywords)
        residual = self.residual(stmt, info)
        targets = syntax.tuple_of([syntax.name(target, True), syntax.name(residual, True)],
                                  store=True)
        out = before + [syntax.assign(targets, call)] + after
        if mode.loop_depth > 0:
            return [mode.push(residual, syntax.name(residual), stmt, maybe_undefined=True)] + out
        return out

    def residual(self, stmt, info):
        """The name holding one call's saved values."""
        if id(stmt) not in self._residuals:
            base = info.target.__name__ if info.kind == "user" else info.name.strip(".()")
            self._residuals[id(stmt)] = self.mode.namer.fresh(f"{base}_saved")
        return self._residuals[id(stmt)]

    def saved_name(self, stmt):
        return self._residuals.get(id(stmt))

    # -- backward sweep ------------------------------------------------------------------
    def adjoint(self, stmt, info, g, state):
        if info.kind == "user":
            return self.static_adjoint(stmt, info, g, state)
        return self.dynamic_adjoint(stmt, info, g, state)

    def wrt(self, stmt, info):
        """(parameters, their argument atoms, the callee's wrt) for a static call: only
        parameters whose arguments carry a derivative (all of them in eager units, whose
        callees may read Variables)."""
        mode = self.mode
        params = list(own_signature(info.target).parameters)
        bound = mode.rules.bind_user_call(stmt, info, params)
        active = tuple(p for p in params if p in bound and (
            mode.eager or any(mode.varied(stmt, a) for a in _atoms(bound[p]))))
        return params, bound, (active[0] if len(active) == 1 else active)

    def static_adjoint(self, stmt, info, g, state):
        mode = self.mode
        _, bound, callee_wrt = self.wrt(stmt, info)
        _, bwd_name = mode.callee_names(info.target, callee_wrt)
        wrt = (callee_wrt,) if isinstance(callee_wrt, str) else callee_wrt
        grads = [mode.rules.grad_name(stmt, p, info.target.__name__) for p in wrt]
        targets = syntax.name(grads[0], True) if isinstance(callee_wrt, str) else \
            syntax.tuple_of([syntax.name(n, True) for n in grads], store=True)
        call = syntax.call(syntax.name(bwd_name),
                           [syntax.name(self.residual(stmt, info)), syntax.name(g)])
        out = [syntax.assign(targets, call)]
        for param, grad in zip(wrt, grads):
            if isinstance(bound[param], gast.Tuple):   # the callee's *args: one per item
                for i, atom in enumerate(bound[param].elts):
                    if mode.varied(stmt, atom):
                        item = syntax.quote_expr("g[i]", g=grad, i=syntax.const(i))
                        out += mode.bookkeeping.accumulate(atom.id, item, state)
            elif isinstance(bound[param], gast.Dict):   # its **kwargs: one per key
                for key, atom in zip(bound[param].keys, bound[param].values):
                    if mode.varied(stmt, atom):
                        item = syntax.quote_expr("_sg.get_item(g, k, v)", g=grad, k=key, v=atom)
                        out += mode.bookkeeping.accumulate(atom.id, item, state)
            elif mode.varied(stmt, bound[param]):
                out += mode.bookkeeping.accumulate(bound[param].id, syntax.name(grad), state)
        return out

    def dynamic_owner(self, stmt, info):
        """The object whose method (or ``__call__``) is called, as an atom, or None."""
        return info.owner

    def keywords_vary(self, stmt):
        return any(self.mode.varied(stmt, kw.value) for kw in stmt.value.keywords)

    def dynamic_adjoint(self, stmt, info, g, state):
        mode = self.mode
        call = stmt.value
        owner = self.dynamic_owner(stmt, info)
        inputs = ([owner] if owner is not None and mode.varied(stmt, owner) else []) \
            + list(call.args)
        saved = self.residual(stmt, info)
        if self.keywords_vary(stmt):
            return self.keyword_adjoint(stmt, info, inputs, saved, g, state)
        backward = syntax.quote_expr("_sg.dynamic_backward(saved, g)", saved=saved, g=g)
        if any(isinstance(a, gast.Starred) for a in inputs):
            return self.unpacked_adjoint(stmt, info, inputs, backward, state)
        grads = [mode.rules.grad_name(stmt, f"arg{i}", "call") for i in range(len(inputs))]
        targets = syntax.tuple_of([syntax.name(n, True) for n in grads], store=True)
        out = [syntax.assign(targets, backward)]
        for atom, grad in zip(inputs, grads):
            if mode.varied(stmt, atom):
                out += mode.bookkeeping.accumulate(atom.id, syntax.name(grad), state)
        return out

    def keyword_adjoint(self, stmt, info, inputs, saved, g, state):
        """``f(x, b=y, **kw)`` known when it runs: the positional cotangents as for any
        dynamic call, ``y`` the one of keyword ``b``, ``kw`` a dict of those of its keys."""
        mode = self.mode
        positional = mode.rules.grad_name(stmt, "args", "call")
        keywords = mode.rules.grad_name(stmt, "keywords", "call")
        out = [syntax.assign(syntax.tuple_of([syntax.name(positional, True),
                                              syntax.name(keywords, True)], store=True),
                             syntax.quote_expr("_sg.dynamic_backward_keywords(saved, g)",
                                               saved=saved, g=g))]
        if any(isinstance(a, gast.Starred) for a in inputs):
            out += self.unpacked_adjoint(stmt, info, inputs, syntax.name(positional), state)
        else:
            for i, atom in enumerate(inputs):
                if mode.varied(stmt, atom):
                    part = syntax.quote_expr("g[i]", g=positional, i=syntax.const(i))
                    out += mode.bookkeeping.accumulate(atom.id, part, state)
        for kw in stmt.value.keywords:
            if not mode.varied(stmt, kw.value):
                continue
            if kw.arg is None:   # **kw: the cotangents of its keys
                part = syntax.quote_expr("_sg.keyword_part(g, kw)", g=keywords, kw=kw.value)
            else:
                part = syntax.quote_expr("_sg.get_item(g, k, v)", g=keywords,
                                         k=syntax.const(kw.arg), v=kw.value)
            out += mode.bookkeeping.accumulate(kw.value.id, part, state)
        return out

    def unpacked_adjoint(self, stmt, info, inputs, backward, state):
        """``f(a, *xs, b)``: one cotangent per argument the call received, so ``xs`` gets
        the run between those of ``a`` and ``b`` (``_sg.unpacked_part``)."""
        mode = self.mode
        stars = [i for i, a in enumerate(inputs) if isinstance(a, gast.Starred)]
        if len(stars) > 1 and any(mode.varied(stmt, a.value) for a in inputs
                                  if isinstance(a, gast.Starred)):
            raise mode.parsed.error(f"`{info.name}` is called with several `*` unpackings "
                                    "of values being differentiated; join them into one "
                                    "sequence first", stmt)
        grads = syntax.name(mode.rules.grad_name(stmt, "args", "call"))
        out = [syntax.assign(syntax.name(grads.id, True), backward)]
        star, after = stars[0], len(inputs) - stars[0] - 1
        for i, atom in enumerate(inputs):
            if isinstance(atom, gast.Starred) and mode.varied(stmt, atom.value):
                part = syntax.quote_expr("_sg.unpacked_part(g, xs, start, after)", g=grads,
                                         xs=atom.value, start=syntax.const(i),
                                         after=syntax.const(after))
                out += mode.bookkeeping.accumulate(atom.value.id, part, state)
            elif not isinstance(atom, gast.Starred) and mode.varied(stmt, atom):
                index = syntax.const(i if i < star else i - len(inputs))
                contribution = syntax.quote_expr("g[i]", g=grads, i=index)
                out += mode.bookkeeping.accumulate(atom.id, contribution, state)
        return out


def _atoms(bound):
    """The argument atoms bound to one parameter (several for ``*args``)."""
    if isinstance(bound, gast.Dict):
        return bound.values
    return bound.elts if isinstance(bound, gast.Tuple) else [bound]
