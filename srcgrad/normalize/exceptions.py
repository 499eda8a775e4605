"""``try``/``except``/``else``/``finally``: the handlers' code moved after the ``try``,
chosen by which handler caught the exception.

Before::

    try:
        y = np.linalg.cholesky(A)
    except np.linalg.LinAlgError as err:
        log(err)
        y = A
    else:
        y = 2.0 * y
    finally:
        done = True

After::

    try:
        caught = 0
        try:
            y = np.linalg.cholesky(A)
        except np.linalg.LinAlgError as _exc:
            caught = 1
            error = _exc
        if caught == 1:
            err = error
            log(err)
            y = A
        else:
            y = 2.0 * y
    finally:
        done = True

The program runs as written: the same statements in the same order, an exception in a
handler or in ``else`` is not caught by the handlers (it propagates, after ``finally``),
a bare ``raise`` in a handler raises the caught exception again. What remains inside the
``try`` is the code an exception may interrupt, and handlers that only note which
of them ran: the modes treat that ``try`` (``modes.reverse`` differentiates the statements
that completed) and the handlers' code is an ordinary ``if``.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.normalize.try_loops import holds_loop, split_try
from srcgrad.syntax import gast


def lower_handlers(body, namer):
    """Rewrite every ``try`` with ``except`` handlers in ``body`` (nested ones first)."""
    out = []
    for stmt in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt) \
                    and not isinstance(stmt, gast.FunctionDef):
                setattr(stmt, field, lower_handlers(inner, namer))
        for handler in getattr(stmt, "handlers", None) or []:
            handler.body = lower_handlers(handler.body, namer)
        if isinstance(stmt, gast.Try) and stmt.handlers:
            new = _lower_try(stmt, namer)
            syntax.set_line(new, stmt.lineno)
            out.extend(new)
        else:
            out.append(stmt)
    return out


def _lower_try(stmt, namer):
    caught = namer.fresh("caught")
    handlers, branches = [], []
    for number, handler in enumerate(stmt.handlers, start=1):
        note = [syntax.assign(caught, syntax.const(number))]
        code = list(handler.body)
        exc_name = None
        if handler.name is not None or _reraises(code):
            exc_name = namer.fresh("_exc")
            stash = namer.fresh("error")
            note.append(syntax.assign(stash, syntax.name(exc_name)))
            user_name = handler.name.id if handler.name is not None else stash
            if handler.name is not None:
                code.insert(0, syntax.assign(user_name, syntax.name(stash)))
            code = _raise_again(code, user_name)
        syntax.set_line(note, handler.lineno)
        handlers.append(gast.ExceptHandler(
            type=handler.type, name=syntax.name(exc_name, store=True) if exc_name else None,
            body=note))
        handlers[-1].lineno = handler.lineno
        test = gast.Compare(left=syntax.name(caught), ops=[gast.Eq()],
                            comparators=[syntax.const(number)])
        branches.append((test, code or [gast.Pass()], handler.lineno))
    if holds_loop(stmt.body):   # the try moved inside the loop (see ``try_loops``)
        guarded = split_try(stmt.body, handlers, caught, namer)
    else:
        guarded = [gast.Try(body=stmt.body, handlers=handlers, orelse=[], finalbody=[])]
    chain = list(stmt.orelse)
    for test, code, lineno in reversed(branches):
        branch = gast.If(test=test, body=code, orelse=chain)
        syntax.set_line([branch], lineno)
        chain = [branch]
    lowered = [syntax.assign(caught, syntax.const(0))] + guarded + chain
    if stmt.finalbody:
        return [gast.Try(body=lowered, handlers=[], orelse=[], finalbody=stmt.finalbody)]
    return lowered


def _reraises(body):
    return any(isinstance(n, gast.Raise) and n.exc is None for n in _own_nodes(body))


def _own_nodes(body):
    """The nodes of ``body`` outside nested functions and nested handlers' reach."""
    for stmt in body:
        if isinstance(stmt, gast.FunctionDef):
            continue
        yield from syntax.walk(stmt)


def _raise_again(body, name):
    """A bare ``raise`` (the exception being handled) becomes ``raise name``."""
    for node in _own_nodes(body):
        if isinstance(node, gast.Raise) and node.exc is None:
            node.exc = syntax.name(name)
    return body
