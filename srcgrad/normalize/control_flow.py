"""Single exit: ``return``, ``break`` and ``continue`` become flags and guarded blocks.

Before::

    for x in xs:
        if x > limit:
            return x
        total = total + x
    return total

After::

    returned = False
    stop_loop = False
    for x in xs:
        skip_rest = False
        if x > limit:
            retval = x
            returned = True
            stop_loop = True
            skip_rest = True
        if not skip_rest:
            total = total + x
        if stop_loop:
            break
    if not returned:
        retval = total
    return retval

The only ``break`` left is the last statement of a loop body, and the only ``return`` is
the last statement of the function, so the reverse mode sees structured control flow.
A loop's ``else`` block runs under ``if not stop_loop``.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast


def to_single_exit(body, namer):
    body = list(body)
    if not body or not isinstance(body[-1], gast.Return):
        body.append(gast.Return(value=syntax.const(None)))
        body[-1].lineno = None
    if not _needs_flags(body):
        return body
    return _Rewriter(namer).function_body(body)


def _needs_flags(body):
    for stmt in _statements(body[:-1]):
        if isinstance(stmt, (gast.Return, gast.Break, gast.Continue)):
            return True
    return any(isinstance(stmt, (gast.Break, gast.Continue))
               for stmt in _statements(body[-1:]))


def _statements(body):
    """Every statement of ``body`` and of the blocks nested in it (handlers' included):
    where a ``return``, ``break`` or ``continue`` can be (not in expressions)."""
    for stmt in body:
        yield stmt
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if type(inner) is list:
                yield from _statements(inner)
        for handler in getattr(stmt, "handlers", None) or ():
            yield from _statements(handler.body)


_MAX_NESTING = 10   # blocks the rewrite nests (guards and the user's own) before it
                    # guards the rest piece by piece: Python compiles 100 levels


class _Loop:
    def __init__(self, namer):
        self.stop = namer.fresh("stop_loop")
        self.skip = namer.fresh("skip_rest")
        self.uses_stop = False
        self.uses_skip = False


class _Rewriter:
    def __init__(self, namer):
        self.namer = namer
        self.returned = namer.fresh("returned")
        self.retval = namer.fresh("retval")
        self.loops = []
        self.nesting = 0   # blocks open around the statement being rewritten

    def function_body(self, body):
        line = body[0].lineno
        prologue = [_set(self.returned, False)]
        syntax.set_line(prologue, line)
        out = prologue + self.block(body)
        out.append(gast.Return(value=syntax.name(self.retval)))
        syntax.set_line(out, line)
        return out

    def block(self, body):
        out = []
        body = list(body)
        for i, stmt in enumerate(body):
            rest = body[i + 1:]
            if rest and not self.loops and isinstance(stmt, gast.If) \
                    and (self.room() or _is_elif(rest)):
                # `if c: return a` followed by more code: the rest becomes the else branch.
                if _always_returns(stmt.body) and not _always_returns(stmt.orelse):
                    stmt.orelse, body[i + 1:] = stmt.orelse + rest, []
                elif _always_returns(stmt.orelse) and not _always_returns(stmt.body):
                    stmt.body, body[i + 1:] = stmt.body + rest, []
            may_exit = self._may_exit(stmt)
            new = self.statement(stmt)
            syntax.set_line(new, stmt.lineno)
            out.extend(new)
            rest = body[i + 1:]
            if rest and may_exit:
                out.extend(self.guarded(rest))
                break
        return out

    def room(self):
        """May one more block open around the rest of a block? Past ``_MAX_NESTING``
        levels the rest runs as a sequence of guarded pieces instead (the generated code
        then nests no deeper however many exits the function has)."""
        return self.nesting < _MAX_NESTING

    def guarded(self, rest):
        """``rest`` run only while no exit was taken: one ``if not flag`` block around
        it, or, past the nesting bound, one such block per piece ending at an exit."""
        guard_flag = self.loops[-1].skip if self.loops else self.returned
        if self.loops:
            self.loops[-1].uses_skip = True
        pieces, piece = [], []
        for stmt in rest:
            piece.append(stmt)
            if not self.room() and self._may_exit(stmt):
                pieces.append(piece)
                piece = []
        pieces += [piece] if piece else []
        out = []
        for piece in pieces:
            test = gast.UnaryOp(op=gast.Not(), operand=syntax.name(guard_flag))
            guarded = gast.If(test=test, body=self.inner(piece), orelse=[])
            syntax.set_line(guarded, piece[0].lineno)
            out.append(guarded)
        return out

    def _may_exit(self, stmt):
        if isinstance(stmt, (gast.For, gast.While)):
            return any(isinstance(node, gast.Return) for node in gast.walk(stmt))
        for node in _walk_same_loop(stmt):
            if isinstance(node, (gast.Break, gast.Continue)):
                return True
        return any(isinstance(node, gast.Return) for node in gast.walk(stmt))

    def statement(self, stmt):
        if isinstance(stmt, gast.Return):
            value = stmt.value if stmt.value is not None else syntax.const(None)
            out = [syntax.assign(self.retval, value), _set(self.returned, True)]
            for loop in self.loops:
                loop.uses_stop = loop.uses_skip = True
                out += [_set(loop.stop, True), _set(loop.skip, True)]
            return out
        if isinstance(stmt, gast.Break):
            loop = self.loops[-1]
            loop.uses_stop = loop.uses_skip = True
            return [_set(loop.stop, True), _set(loop.skip, True)]
        if isinstance(stmt, gast.Continue):
            self.loops[-1].uses_skip = True
            return [_set(self.loops[-1].skip, True)]
        return self.compound(stmt)

    def inner(self, body, deeper=1):
        """``block(body)`` for a block printed ``deeper`` levels further in."""
        self.nesting += deeper
        try:
            return self.block(body)
        finally:
            self.nesting -= deeper

    def compound(self, stmt):
        if isinstance(stmt, gast.If):
            stmt.body = self.inner(stmt.body)
            stmt.orelse = self.inner(stmt.orelse, 0 if _is_elif(stmt.orelse) else 1)
            return [stmt]
        if isinstance(stmt, gast.With):
            stmt.body = self.inner(stmt.body)
            return [stmt]
        if isinstance(stmt, gast.Try):
            stmt.body = self.inner(stmt.body)
            stmt.finalbody = self.inner(stmt.finalbody)
            return [stmt]
        if isinstance(stmt, (gast.For, gast.While)):
            return self.loop(stmt)
        return [stmt]

    def loop(self, stmt):
        loop = _Loop(self.namer)
        self.loops.append(loop)
        body = self.inner(stmt.body)
        self.loops.pop()
        before, after = [], []
        if loop.uses_skip:
            body.insert(0, _set(loop.skip, False))
        if loop.uses_stop:
            before.append(_set(loop.stop, False))
            body.append(gast.If(test=syntax.name(loop.stop), body=[gast.Break()], orelse=[]))
        orelse = self.inner(stmt.orelse)
        if orelse and loop.uses_stop:
            test = gast.UnaryOp(op=gast.Not(), operand=syntax.name(loop.stop))
            after.append(gast.If(test=test, body=orelse, orelse=[]))
        else:
            after.extend(orelse)
        stmt.body, stmt.orelse = body, []
        syntax.set_line(body, stmt.lineno)
        return before + [stmt] + after


def _is_elif(body):
    """Is ``body``, as an ``else`` block, printed as an ``elif`` (no deeper)?"""
    return len(body) == 1 and isinstance(body[0], gast.If)


def _always_returns(body):
    if not body:
        return False
    last = body[-1]
    if isinstance(last, gast.Return):
        return True
    return isinstance(last, gast.If) and _always_returns(last.body) and _always_returns(last.orelse)


def _set(flag, value):
    return syntax.assign(flag, syntax.const(value))


def _walk_same_loop(stmt):
    """Nodes of ``stmt`` that are not inside a nested loop."""
    stack = [stmt]
    while stack:
        node = stack.pop()
        yield node
        if node is not stmt and isinstance(node, (gast.For, gast.While)):
            continue
        stack.extend(gast.iter_child_nodes(node))
