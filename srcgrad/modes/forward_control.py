"""Forward mode for control flow (the methods ``ForwardMode`` gets from
``ForwardControlFlow``): each branch, handler and loop body is transformed with its own
copy of the tangent state; a tangent set on one path only is materialized as zeros on
the others, and a loop is walked until the names with tangents are stable at its top.

Before::                          After (``y`` has a tangent in one branch only)::

    if c:                             if c:
        y = x * 2                         y = x * 2
    else:                                 y_dot = x_dot * 2
        y = 1.0                       else:
                                          y = 1.0
                                          y_dot = _sg.zeros_like(y)
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.modes.reverse_common import UNLOWERED, unlowered_handler
from srcgrad.syntax import gast


class ForwardControlFlow:
    """Control flow for ``ForwardMode``: ``if``, ``try`` and loops, with the tangents
    that one path sets and another does not made zeros where the paths join."""

    def branch(self, stmt, state):
        then_state, else_state = state.copy(), state.copy()
        then_code = self.block(stmt.body, then_state)
        else_code = self.block(stmt.orelse, else_state)
        for name in sorted(set(then_state.tangents) | set(else_state.tangents)):
            if name not in then_state:
                then_code += self.materialize(name, then_state)
            if name not in else_state:
                else_code += self.materialize(name, else_state)
        state.join(then_state, else_state)
        return [gast.If(test=stmt.test, body=then_code or [gast.Pass()], orelse=else_code)]

    def guarded(self, stmt, state):
        """``try``: each tangent is computed next to its primal statement, so the part of
        the body an exception lets run has its tangents. With handlers, the names the body
        gives a tangent get a zero one first (what they keep if the body stops before
        them), and after the ``try`` either path's state may hold."""
        left = unlowered_handler(stmt)
        if left is not None:
            raise self.parsed.error(UNLOWERED, left)
        body_state = state.copy()
        body = self.block(stmt.body, body_state) or [gast.Pass()]
        before = []
        if stmt.handlers:
            for name in sorted(set(body_state.tangents) - set(state.tangents)):
                before += self.materialize(name, state)
            state.join(body_state, state.copy())
        else:
            state.tangents, state.defined = body_state.tangents, body_state.defined
        final = self.block(stmt.finalbody, state)
        return before + [gast.Try(body=body, handlers=stmt.handlers, orelse=[], finalbody=final)]

    def loop(self, stmt, state):
        """The tangent code of a loop; the same loop met again in the same state (an
        outer loop's trial, then its final pass) reuses the code generated the first
        time: without it a loop nested ``d`` deep is generated ``2 ** d`` times."""
        memo = self.__dict__.setdefault("_loops_generated", {})
        key = (id(stmt), tuple(sorted(state.tangents.items())), frozenset(state.defined))
        known = memo.get(key)
        if known is None:
            code = self._loop(stmt, state)
            memo[key] = known = (code, state.copy())
        else:
            state.tangents, state.defined = dict(known[1].tangents), set(known[1].defined)
        return syntax.clone(known[0])

    def _loop(self, stmt, state):
        body = stmt.body[:-1] if stmt.body and _is_loop_exit(stmt.body[-1]) else stmt.body
        before = []
        # until the names with tangents are stable at the loop's top: a round that goes on
        # gives one more of the loop's names a tangent
        bound = len(set(syntax.names_in(stmt))) + 2
        for _ in fixpoint.rounds(bound, "the names with tangents at a loop's top"):
            trial = state.copy()
            self.loop_body(stmt, body, trial)
            new = [n for n in trial.tangents if n not in state]
            if not new:
                break
            for name in sorted(new):
                before += self.materialize(name, state)
        entry = state.copy()
        code = self.loop_body(stmt, body, state)
        for name in sorted(entry.tangents):
            if name not in state:
                code += self.materialize(name, state)
        state.join(entry, state)
        state.defined = entry.defined
        if body is not stmt.body:
            code.append(stmt.body[-1])
        loop = syntax.clone(stmt)
        loop.body = code or [gast.Pass()]
        if _iterates_tangent(stmt, entry):
            loop.target = syntax.tuple_of([syntax.name(stmt.target.id, True), syntax.name(
                self.tangent(stmt.target.id), True)], store=True)
            loop.iter = syntax.quote_expr("_sg.tangent_pairs(xs, xs_dot)", xs=stmt.iter,
                                          xs_dot=self.tangent(stmt.iter.id))
        return before + [loop]

    def loop_body(self, stmt, body, state):
        if isinstance(stmt, gast.For):
            target = stmt.target.id
            state.tangents.pop(target, None)
            if _iterates_tangent(stmt, state):
                state.tangents[target] = False
            state.defined.add(target)
        return self.block(body, state)


def _iterates_tangent(stmt, state):
    """Does a ``for`` loop walk over a value that has a tangent?"""
    return isinstance(stmt, gast.For) and isinstance(stmt.iter, gast.Name) \
        and stmt.iter.id in state


def _is_loop_exit(stmt):
    return (isinstance(stmt, gast.If) and len(stmt.body) == 1
            and isinstance(stmt.body[0], gast.Break) and not stmt.orelse)
