"""Subtract a negated first contribution from the next one instead of negating it alone.

An adjoint whose first contribution is negated (``1.0 - p`` gives ``p`` the cotangent
``-g``) and that is added to next, in place, takes one pass over the array for the
negation and one for the sum; the difference does both in one (logistic regression's
``dp``)::

    Before::                              After::

        dp = -d_sub_1                         d_log = ...
        d_log = ...                           dp = d_log / p - d_sub_1
        dp += d_log / p

``-a + e`` and ``e - a`` are the same number in IEEE arithmetic (a difference is the sum
with the negated operand, and addition commutes). The statements between the two read
and write neither name and are plain assignments without in-place helpers (``add_at``),
so ``a`` holds the same values when it is read later; ``e`` reads neither an in-place
helper nor the adjoint itself.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.optimize.dce import IMPURE_HELPERS
from srcgrad.syntax import gast


def fold_negated_starts(body):
    """``body`` (a list of statements) with each qualifying ``d = -a`` ... ``d += e``
    pair made ``d = e - a`` at the second statement's place."""
    out = list(body)
    position = 0
    while position < len(out):
        pair = _pair(out, position)
        if pair is None:
            position += 1
            continue
        later, negated = pair
        augmented = out[later]
        folded = syntax.assign(augmented.target.id, gast.BinOp(
            left=augmented.value, op=gast.Sub(), right=syntax.name(negated)))
        syntax.set_line(folded, syntax.line_of(augmented))
        out[later] = folded
        del out[position]
    return out


def _pair(body, position):
    """``(position of d += e, a)`` when ``body[position]`` is ``d = -a`` that folds."""
    stmt = body[position]
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.UnaryOp)
            and isinstance(stmt.value.op, gast.USub)
            and isinstance(stmt.value.operand, gast.Name)):
        return None
    adjoint, negated = stmt.targets[0].id, stmt.value.operand.id
    if adjoint == negated:
        return None
    for later in range(position + 1, len(body)):
        other = body[later]
        mentioned = set(syntax.names_in(other))
        if isinstance(other, gast.AugAssign) and isinstance(other.op, gast.Add) \
                and isinstance(other.target, gast.Name) and other.target.id == adjoint:
            reads = set(syntax.names_in(other.value))
            if adjoint in reads or _impure(other.value):
                return None
            return later, negated
        if adjoint in mentioned or negated in mentioned or not isinstance(other, gast.Assign) \
                or _impure(other.value):
            return None
    return None


def _impure(expr):
    for node in syntax.walk(expr):
        if isinstance(node, gast.Call):
            name = syntax.dotted_name(node.func) or ""
            if not name.startswith(("np.", "_sg.", "math.")) or \
                    name.rsplit(".", 1)[-1] in IMPURE_HELPERS:
                return True
    return False
