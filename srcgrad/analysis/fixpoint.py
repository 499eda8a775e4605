"""Bounded fixpoint iteration: every loop of the compiler that runs "until nothing
changes" counts its rounds against a bound that its termination argument gives, and
raises ``InternalError`` past it rather than hanging or stopping early with a state that
does not hold.

    for _ in rounds(len(names) + 1, "the names with tangents at a loop's top"):
        ...
        if not new:
            break

A loop whose every round that goes on grows (or shrinks) a finite set by at least one
element ends within the set's size plus one rounds; that size is the bound.
"""

from __future__ import annotations

from srcgrad.errors import InternalError


def rounds(bound, what):
    """Yield ``0, 1, ..., bound - 1``; a caller that has not stopped by then gets an
    ``InternalError`` naming ``what`` (the fixpoint that did not settle)."""
    yield from range(max(int(bound), 1))
    raise InternalError(
        f"srcgrad internal error: {what} did not reach a fixed point within {bound} rounds "
        "(each round must change a finite set); please report the function")
