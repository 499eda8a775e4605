"""Reverse mode for loops: the forward sweep counts iterations (or reverses a ``range``),
the backward sweep runs the body's adjoint that many times, last iteration first.

Before::                         After (forward; backward)::

    for x in xs:                     n_iterations = 0
        s = s + x                    for x in xs:
                                         n_iterations += 1
                                         ...
                                         stack.append(x)
                                     ...
                                     for i in reversed(range(n_iterations)):
                                         x = stack.pop()
                                         ...
                                         _sg.add_at(dxs, i, dx)
"""

from __future__ import annotations

from collections import Counter

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.analysis.dataflow import live_names
from srcgrad.modes.reverse_common import OWNED, SHARED, has_exit, is_loop_exit, is_range
from srcgrad.syntax import gast


class LoopAdjoints:
    """Loops for ``ReverseMode``: the forward loop that counts its iterations and
    saves per-iteration values, and the backward loop that runs them in reverse.
    Held by the mode as ``mode.loop_adjoints``."""

    def __init__(self, mode):
        self.mode = mode
        self._generated = {}   # (loop, depth, state) -> (adjoint code, state after)

    def iteration_locals(self, stmt):
        """The loop body's top-level assignments whose target is set once per iteration,
        before any use, not read across iterations or after the loop, and not bound
        before the loop (the backward sweep after the reversed loop may read the value
        it had then: ``np.dot(b, b)`` before ``for ...: b = 1``). They are saved once at
        the end of an iteration and restored when its adjoint starts, so they need no
        placeholder value before the loop."""
        if not hasattr(stmt, "_srcgrad_locals"):
            if self.mode.primal_live is None:
                self.mode.primal_live = live_names(self.mode.cfg)
            live = self.mode.primal_live[self.mode.cfg.node(stmt)]
            stores = Counter(n.id for s in stmt.body for n in syntax.walk(s)
                             if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store))
            loop_target = stmt.target.id if isinstance(stmt, gast.For) else None
            candidates = [
                s for s in stmt.body
                if isinstance(s, gast.Assign) and isinstance(s.targets[0], gast.Name)
                and stores[s.targets[0].id] == 1 and s.targets[0].id not in live
                and s.targets[0].id != loop_target]
            inside = self._bound_inside(stmt) if candidates else None
            stmt._srcgrad_locals = [s for s in candidates
                                    if not self.defined_outside(stmt, s.targets[0].id, inside)]
            self.mode.local_ids.update(id(s) for s in stmt._srcgrad_locals)
        return stmt._srcgrad_locals

    def forward_loop(self, stmt):
        counter = self.loop_counter(stmt)
        local_saves = [self.mode.push(s.targets[0].id, syntax.name(s.targets[0].id), stmt,
                                 maybe_undefined=False) for s in self.iteration_locals(stmt)]
        self.mode.loop_depth += 1
        body = self.mode.forward_block(stmt.body)
        self.mode.loop_depth -= 1
        exit_check = body.pop() if body and is_loop_exit(body[-1]) else None
        body += local_saves
        before = []
        if counter:
            if self.mode.loop_depth > 0:
                before.append(self.mode.push(counter, syntax.name(counter), stmt,
                                             maybe_undefined=True))
            before += syntax.quote("n = 0", n=counter)
            body = syntax.quote("n += 1", n=counter) + body
        if isinstance(stmt, gast.For) and not is_range(stmt.iter):
            target = stmt.target.id
            if self.target_defined_outside(stmt):
                before.append(self.mode.push(target, syntax.name(target), stmt))
            body.append(self.mode.push(target, syntax.name(target), stmt))
        if exit_check:
            body.append(exit_check)
        loop = syntax.clone(stmt) if isinstance(stmt, gast.While) else gast.For(
            target=stmt.target, iter=stmt.iter, body=[], orelse=[], type_comment=None)
        loop.body = body
        return before + [loop]

    def loop_counter(self, stmt):
        """Name of the iteration counter a loop needs in the backward sweep, or None."""
        if isinstance(stmt, gast.For) and is_range(stmt.iter) and not has_exit(stmt):
            return None
        if not hasattr(stmt, "_srcgrad_counter"):
            stmt._srcgrad_counter = self.mode.namer.fresh("n_iterations")
        return stmt._srcgrad_counter

    def target_defined_outside(self, stmt):
        return self.defined_outside(stmt, stmt.target.id)

    def defined_outside(self, stmt, target, inside=None):
        """May ``target`` be bound (or a parameter) elsewhere than in the loop ``stmt``?
        ``inside``: ``_bound_inside(stmt)``, when the caller asks for several names."""
        bound, inside_nodes = inside or self._bound_inside(stmt)
        outside = self.mode.nodes_defining(target)
        return target in self.mode.params or bool(outside - inside_nodes) or target not in bound

    def _bound_inside(self, stmt):
        """The names the loop ``stmt`` binds and the CFG nodes of its statements (one
        walk of the loop, shared by the names asked about)."""
        nodes = syntax.walk(stmt)
        bound = {n.id for n in nodes if isinstance(n, gast.Name)
                 and isinstance(n.ctx, gast.Store)}
        return bound, {self.mode.cfg.by_stmt.get(id(s)) for s in nodes}

    def backward_loop(self, stmt, state):
        """The adjoint of a loop; the same loop met again in the same state (an outer
        loop's probe, then its final iteration) reuses the code generated the first time:
        without it a loop nested ``d`` deep is generated ``2 ** d`` times."""
        key = (id(stmt), self.mode.loop_depth, tuple(sorted(state.items())))
        known = self._generated.get(key)
        if known is None:
            code = self._backward_loop(stmt, state)
            self._generated[key] = known = (code, dict(state))
        else:
            state.clear()
            state.update(known[1])
        return syntax.clone(known[0])

    def _backward_loop(self, stmt, state):
        body = stmt.body[:-1] if stmt.body and is_loop_exit(stmt.body[-1]) else stmt.body
        before = []
        # reach a state that holds at the top of every iteration: a round that goes on adds
        # one of the loop's names to the state or demotes one from owned to shared
        bound = 2 * len(set(syntax.names_in(stmt))) + 2
        for _ in fixpoint.rounds(bound, "the adjoint state at a loop's top"):
            trial = dict(state)
            self.mode.loop_depth += 1
            self.backward_iteration(stmt, body, trial, probe=True)
            self.mode.loop_depth -= 1
            new = [n for n in trial if n not in state]
            demoted = [n for n in trial if state.get(n) == OWNED and trial[n] == SHARED]
            if not new and not demoted:
                break
            for name in sorted(new):
                before += self.mode.bookkeeping.materialize(name, state)
            for name in demoted:
                state[name] = SHARED
        entry = dict(state)
        self.mode.loop_depth += 1
        code = self.backward_iteration(stmt, body, state, probe=False)
        self.mode.loop_depth -= 1
        for name in sorted(entry):
            if name not in state:
                code += self.mode.bookkeeping.materialize(name, state)
            elif entry[name] == OWNED and state[name] == SHARED:
                code += self.mode.bookkeeping.own(name, state)
        loop = self.reversed_loop(stmt, code)
        after = []   # the forward sweep pushed the counter, then the target: popped in reverse
        if isinstance(stmt, gast.For) and not is_range(stmt.iter) \
                and self.target_defined_outside(stmt):
            after.append(self.mode.pop(stmt.target.id))
        counter = self.loop_counter(stmt)
        if counter and self.mode.loop_depth > 0:
            after.append(self.mode.pop(counter))
        return before + [loop] + after

    def backward_iteration(self, stmt, body, state, probe):
        restores = [self.mode.pop(s.targets[0].id) for s in reversed(self.iteration_locals(stmt))]
        code = restores + self.mode.backward_block(body, state)
        if isinstance(stmt, gast.For) and not is_range(stmt.iter):
            target = stmt.target.id
            tail = []
            if target in state and self.mode.is_active(stmt, target) \
                    and self.mode.varied(stmt, stmt.iter):
                index = syntax.name(self._reverse_index(stmt))
                item = syntax.name(self.mode.namer.adjoint(target))
                tail += self.mode.bookkeeping.add_at(stmt.iter.id, index, item, state)
            state.pop(target, None)
            code = [self.mode.pop(target)] + code + tail
        return code

    def _reverse_index(self, stmt):
        if not hasattr(stmt, "_srcgrad_index"):
            stmt._srcgrad_index = self.mode.namer.fresh("i")
        return stmt._srcgrad_index

    def reversed_loop(self, stmt, code):
        code = code or [gast.Pass()]
        counter = self.loop_counter(stmt)
        if isinstance(stmt, gast.For) and is_range(stmt.iter):
            iterable = stmt.iter if counter is None else syntax.quote_expr(
                "r[:n]", r=stmt.iter, n=counter)
            header = syntax.quote_expr("reversed(r)", r=iterable)
            return gast.For(target=syntax.clone(stmt.target), iter=header, body=code,
                            orelse=[], type_comment=None)
        index = getattr(stmt, "_srcgrad_index", None)
        uses_index = any(isinstance(n, gast.Name) and n.id == index
                         for s in code for n in syntax.walk(s))
        if uses_index:
            loop = syntax.quote("for i in reversed(range(n)):\n    pass",
                                i=stmt._srcgrad_index, n=counter)[0]
        else:
            loop = syntax.quote("for _ in range(n):\n    pass", n=counter)[0]
        loop.body = code
        return loop
