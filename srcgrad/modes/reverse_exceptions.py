"""Reverse mode for a ``try`` with ``except`` handlers: the adjoint of exactly the
statements that completed.

An exception may stop the ``try`` body part-way; the statements that ran before it keep
their effects (the handler's code may read what they computed), so their adjoints must
run and the others' must not. The forward sweep numbers the body's statements in program
order and records, after each, how far it got; the backward sweep runs a statement's
adjoint only if it completed. Values a statement's adjoint needs from before it are saved
after the statement completes (copied first), so a save is popped exactly when it was
pushed. Before (``normalize.exceptions`` left only flags in the handlers)::

    caught = 0
    try:
        a = x * 2.0
        y = np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        caught = 1

After (forward sweep; backward sweep)::

    progress = 0                           if progress >= 2:
    caught = 0                                 da = ...adjoint of cholesky...
    try:                                   if progress >= 1:
        a = x * 2.0                            dx = da * 2.0
        progress = 1
        y = np.linalg.cholesky(a)
        progress = 2
    except np.linalg.LinAlgError:
        caught = 1

An ``if`` in the body records its number on entering either branch. Inside a loop, each
iteration's progress is saved after its ``try`` and restored before its adjoint. A ``for``
loop in the body was moved out of it (``normalize.try_loops``); a ``while`` loop, a
``with`` or another ``try`` in the body is refused (how far it got would need a record
per iteration or per block).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.modes.reverse_common import UNLOWERED, is_loop_exit, unlowered_handler
from srcgrad.syntax import gast

REFUSED = {
    "loop-inside": "a loop inside the body of a `try` with `except` handlers that "
                   "normalization could not split out is not supported in reverse mode: "
                   "move the loop into a helper function",
    "nested": "a `try` or `with` inside the body of a `try` with `except` handlers is not "
              "supported in reverse mode yet (an exception could stop it part-way and "
              "continue): move the inner block into a helper function",
}


class ExceptionAdjoints:
    """``try`` with handlers for ``ReverseMode`` (held as ``mode.exception_adjoints``)."""

    def __init__(self, mode):
        self.mode = mode
        self.gates = {}   # id(statement in a try body) -> (progress name, number)
        self.progress_names = {}   # id(try statement) -> its progress name
        self.unbound = set()   # names set to None first (see ``_unbound``)

    def forward_try(self, stmt):
        mode = self.mode
        left = unlowered_handler(stmt)
        if left is not None:
            raise mode.parsed.error(UNLOWERED, left)
        for sub in syntax.statements(stmt.body):
            if isinstance(sub, (gast.For, gast.While)):
                raise mode.parsed.error(REFUSED["loop-inside"], sub)
            if isinstance(sub, (gast.Try, gast.With)):
                raise mode.parsed.error(REFUSED["nested"], sub)
        progress = mode.namer.fresh("progress")
        self.progress_names[id(stmt)] = progress
        self.unbound.update(self._unbound(stmt))
        counter = [0]
        body = self._forward_body(stmt.body, progress, counter)
        start = syntax.assign(progress, syntax.const(0))
        guarded = gast.Try(body=body or [gast.Pass()], handlers=stmt.handlers, orelse=[],
                           finalbody=mode.forward_block(stmt.finalbody))
        out = [start, guarded]
        if mode.loop_depth > 0:   # how far this iteration got, for its adjoint
            out.append(mode.push(progress, syntax.name(progress), stmt, maybe_undefined=False))
        return out

    def backward_try(self, stmt, state):
        restore = [self.mode.pop(self.progress_names[id(stmt)])] \
            if self.mode.loop_depth > 0 else []
        return restore + self.mode.backward_block(stmt.body, state)

    def _unbound(self, stmt):
        """The names the body assigns that may be unbound before it. They start as
        ``None`` (at the top of the function, where no value of theirs is lost), so that
        the backward sweep can read (and skip) them when an exception stopped the body
        before them."""
        first = next((s for s in stmt.body if id(s) in self.mode.cfg.by_stmt), None)
        if first is None:
            return []
        defined = self.mode.surely_defined[self.mode.cfg.node(first)] | set(self.mode.params)
        assigned = syntax.names_in(gast.Module(body=stmt.body, type_ignores=[]), gast.Store)
        return sorted(set(assigned) - defined)

    def _forward_body(self, body, progress, counter):
        out = []
        for stmt in body:
            counter[0] += 1
            number = counter[0]
            if not isinstance(stmt, gast.Raise):
                self.gates[id(stmt)] = (progress, number)
            if isinstance(stmt, gast.If) and not is_loop_exit(stmt):
                then_code = self._forward_body(stmt.body, progress, counter)
                else_code = self._forward_body(stmt.orelse, progress, counter)
                new = [gast.If(test=stmt.test, body=[_record(progress, number)] + then_code,
                               orelse=[_record(progress, number)] + else_code)]
            elif isinstance(stmt, gast.Raise):
                new = [stmt]
            else:
                new = self._saves_after(self.mode.forward(stmt), stmt) \
                    + [_record(progress, number)]
            syntax.set_line(new, stmt.lineno)
            out.extend(new)
        return out

    def _saves_after(self, code, stmt):
        """Move the saves ``code`` starts with after the statement: the value is copied
        first and pushed once the statement completed."""
        copies, saves = [], []
        while code and getattr(code[0], "saved", None) is not None:
            push = code.pop(0)
            value = push.value.args[0]
            copy = self.mode.namer.fresh(f"{push.saved}_before")
            copies.append(syntax.assign(copy, value))
            saves.append(self.mode.push(push.saved, syntax.name(copy), stmt,
                                        maybe_undefined=push.maybe_undefined))
        return copies + code + saves

    def gated(self, stmt, state):
        """The adjoint of a statement of a ``try`` body, run only if it completed; None
        for a statement outside such a body."""
        gate = self.gates.pop(id(stmt), None)
        if gate is None:
            return None
        progress, number = gate
        test = gast.Compare(left=syntax.name(progress), ops=[gast.GtE()],
                            comparators=[syntax.const(number)])
        guard = gast.If(test=test, body=[stmt], orelse=[])
        guard.lineno = stmt.lineno
        try:
            return self.mode.backward_if(guard, state)
        finally:
            self.gates[id(stmt)] = gate


def _record(progress, number):
    marker = syntax.assign(progress, syntax.const(number))
    marker.progress = (progress, number)
    return marker


def prune_markers(forward, backward):
    """Drop the records of progress no adjoint is gated on (a statement with no adjoint):
    ``progress >= k`` holds once any record at or after ``k`` on the path ran, so the
    records left still tell exactly which gated statements completed."""
    used = {(test.left.id, test.comparators[0].value) for test in syntax.walk(
        gast.Module(body=backward, type_ignores=[])) if isinstance(test, gast.Compare)
        and isinstance(test.left, gast.Name) and isinstance(test.ops[0], gast.GtE)}
    return _without_markers(forward, used)


def _without_markers(body, used):
    out = []
    for stmt in body:
        marker = getattr(stmt, "progress", None)
        if marker is not None and marker not in used:
            continue
        for field in ("body", "orelse"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, (gast.If, gast.Try)):
                kept = _without_markers(inner, used)
                setattr(stmt, field, kept or ([gast.Pass()] if field == "body" else []))
        out.append(stmt)
    return out
