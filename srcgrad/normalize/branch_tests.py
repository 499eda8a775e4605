"""Give every ``if`` a test that its own branches do not reassign.

Before::                              After::

    _and = a > 0                          _and = a > 0
    if _and:                              _test = _and
        _and = b > 0                      if _test:
                                              _and = b > 0

The backward sweep replays an ``if`` after it has undone the statements that follow
it, but before it undoes the branch itself: it reads the test as the branch left it.
A branch that reassigns its own test (as ``and``/``or`` lowering does, or
``if flag: flag = ...`` in the user's code) would then choose the wrong adjoint
branch and pop the wrong saved values. A copy taken before the branch keeps the
value the forward sweep branched on.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.normalize import map_blocks
from srcgrad.syntax import gast


def freeze_branch_tests(body, namer):
    def freeze(stmt):
        if isinstance(stmt, gast.If) and isinstance(stmt.test, gast.Name) \
                and stmt.test.id in _stored_names(stmt.body + stmt.orelse):
            frozen = namer.temp("test")
            copy = syntax.assign(frozen, syntax.name(stmt.test.id))
            syntax.set_line([copy], stmt.lineno)
            stmt.test = syntax.name(frozen)
            return [copy, stmt]
        return [stmt]

    return map_blocks(body, freeze)


def _stored_names(body):
    return {name for stmt in body for name in syntax.names_in(stmt, gast.Store)}
