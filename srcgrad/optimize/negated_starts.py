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

A negation read only by a scaling by a number (``a - 2 * b`` gives ``b`` the cotangent
``-g`` times 2) folds into the number the same way, a pass over the array fewer
(``fold_negated_scalings``; ``(-a) * c``, ``a * (-c)`` and ``-(a * c)`` are the same
number, and so for ``/``)::

    Before::                              After::

        d_mul = -_sg.unbroadcast(g, _mul)     ddiff = _sg.unbroadcast(g, _mul) * -2
        ddiff = d_mul * 2
"""

from __future__ import annotations

from collections import Counter

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


def fold_negated_scalings(body, keep=()):
    """``body`` with each ``d = -a`` whose only reader is a later ``z = d * c`` (``c *
    d``, ``d / c``; ``c`` a literal number) made ``z = a * -c`` at the reader's place.
    ``keep``: names read after ``body``."""
    if not any(_negation(stmt) for stmt in body):
        return body
    counts = Counter(syntax.names_in(gast.Module(body=body, type_ignores=[])))
    out = list(body)
    position = 0
    while position < len(out):
        found = _scaling(out, position, counts, keep)
        if found is None:
            position += 1
            continue
        later, value = found
        folded = syntax.assign(out[later].targets[0].id, value)
        syntax.set_line(folded, syntax.line_of(out[later]))
        out[later] = folded
        del out[position]
    return out


def _negation(stmt):
    """``(d, a)`` when ``stmt`` is ``d = -a`` (``a`` an expression that calls only NumPy
    and srcgrad's pure helpers), else None."""
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.UnaryOp) \
            and isinstance(stmt.value.op, gast.USub) and not _impure(stmt.value.operand) \
            and getattr(stmt, "saved", None) is None:
        return stmt.targets[0].id, stmt.value.operand
    return None


def _scaling(body, position, counts, keep):
    """``(position of the reader, its value with the negation folded)`` when
    ``body[position]`` is a ``d = -a`` that folds into its only reader (the statements
    between mention neither ``d`` nor a name ``a`` reads, so ``a`` may be evaluated
    there)."""
    found = _negation(body[position])
    if found is None:
        return None
    negated, operand = found
    reads = set(syntax.names_in(operand))
    if negated in reads or counts[negated] != 2 or negated in keep:
        return None
    for later in range(position + 1, len(body)):
        other = body[later]
        if not isinstance(other, gast.Assign) or _impure(other.value):
            return None
        mentioned = set(syntax.names_in(other))
        if negated in mentioned:
            value = _scaled(other, negated, operand)
            return None if value is None or set(syntax.names_in(other.targets[0])) & reads \
                else (later, value)
        if reads & mentioned:
            return None
    return None


def _scaled(stmt, negated, operand):
    """``stmt``'s value with ``operand`` for ``-negated`` and the number negated instead,
    when it is ``negated * c``, ``c * negated`` or ``negated / c`` (one target name)."""
    value = stmt.value
    if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], gast.Name) or \
            not isinstance(value, gast.BinOp) or not isinstance(value.op, (gast.Mult, gast.Div)):
        return None

    def number(node):
        return isinstance(node, gast.Constant) and type(node.value) in (int, float)

    def named(node):
        return isinstance(node, gast.Name) and node.id == negated

    if named(value.left) and number(value.right):
        return gast.BinOp(left=operand, op=value.op, right=syntax.const(-value.right.value))
    if isinstance(value.op, gast.Mult) and number(value.left) and named(value.right):
        return gast.BinOp(left=syntax.const(-value.left.value), op=value.op, right=operand)
    return None
