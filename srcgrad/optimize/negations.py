"""Cancel the negation of a backward cotangent against a negation inside its product.

The adjoint of ``-x`` is ``-g`` and that of ``1 / x`` is ``g * (-ans / x)``: a sigmoid
written ``1 / (1 + np.exp(-x))`` gets two negations that cancel, two array operations
for nothing. When the negated name is a temporary read only there, its definition (and
those of the temporaries it reads, the same way) is moved into the negation, which then
cancels a negation inside it (``-(a * (-b / c))`` is ``a * (b / c)``; IEEE negation is
exact, so the numbers are the same bit for bit).

Before::                                        After::

    d_add = dy * (-y / _add)                        d_neg = dy * (y / _add) * _exp
    d_neg_ = d_add * _exp                           ...
    d_neg = -d_neg_

A temporary is moved only when the sweep reads it once and binds it once, both in one
block, its value is arithmetic (``+ - * /`` on names and numbers), and the statements
between bind nothing it reads and are arithmetic too (nothing can write into an operand).
"""

from __future__ import annotations

from collections import Counter

from srcgrad import syntax
from srcgrad.syntax import gast

_ARITHMETIC = (gast.BinOp, gast.UnaryOp, gast.Name, gast.Constant)
_OPERATORS = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.USub, gast.UAdd)


def cancel_negations(backward, keep=(), uses=None):
    """Rewrite, in every block of ``backward``, ``y = -t`` whose ``t`` can absorb the
    negation (see the module docstring). ``keep``: names read after the sweep; ``uses``:
    the ``UseCache`` told of each statement rewritten (and asked for the names each
    statement uses)."""
    if not any(_negated_name(stmt) for stmt in syntax.statements(backward)):
        return backward   # (most sweeps: no name counted)
    if uses is None:
        counts = Counter(syntax.names_in(gast.Module(body=backward, type_ignores=[])))
    else:
        counts = Counter()
        for stmt in backward:
            found = uses.of(stmt)
            counts.update(found.reads)
            counts.update(found.binds)
    _blocks(backward, counts, set(keep), uses)
    return backward


def _blocks(body, counts, keep, uses):
    _block(body, counts, keep, uses)
    for stmt in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], gast.stmt):
                _blocks(inner, counts, keep, uses)


def _block(body, counts, keep, uses):
    removed = set()
    for position, stmt in enumerate(body):
        if _negated_name(stmt):
            value = stmt.value
            inliner = _Inliner(body, position, counts, keep, removed)
            negated = inliner.negate(value.operand)
            if negated is not None:
                stmt.value = negated
                removed |= inliner.used
                if uses is not None:
                    uses.forget(stmt)
    if removed:
        body[:] = [stmt for position, stmt in enumerate(body) if position not in removed]


class _Inliner:
    """Negations of expressions evaluated at ``body[at]``, moving there the definitions
    of the temporaries they read (``used``: the positions of those definitions)."""

    def __init__(self, body, at, counts, keep, removed):
        self.body, self.at, self.counts, self.keep = body, at, counts, keep
        self.removed, self.used = removed, set()

    def negate(self, node):
        """``-node`` with one negation fewer, or None."""
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
            return node.operand
        if isinstance(node, gast.Constant) and type(node.value) in (int, float):
            return syntax.const(-node.value)
        if isinstance(node, gast.BinOp) and isinstance(node.op, (gast.Mult, gast.Div)):
            left = self.negate(node.left)
            if left is not None:
                return gast.BinOp(left=left, op=node.op, right=node.right)
            right = self.negate(node.right)
            if right is not None:
                return gast.BinOp(left=node.left, op=node.op, right=right)
            return None
        if isinstance(node, gast.Name):
            position = self._movable(node.id)
            if position is None:
                return None
            negated = self.negate(syntax.clone(self.body[position].value))
            if negated is not None:
                self.used.add(position)
            return negated
        return None

    def _movable(self, name):
        """The position of the definition of the temporary ``name`` when it can move to
        ``body[at]`` (see the module docstring), else None."""
        if self.counts[name] != 2 or name in self.keep:
            return None
        for position in range(self.at - 1, -1, -1):
            stmt = self.body[position]
            if position in self.removed or position in self.used or not _plain(stmt) \
                    or not _arithmetic(stmt.value):
                return None
            if stmt.targets[0].id == name:
                reads = set(syntax.loaded_names(stmt.value))
                between = self.body[position + 1:self.at]
                if any(s.targets[0].id in reads for s in between):
                    return None
                return position
        return None


def _negated_name(stmt):
    """Is ``stmt`` a plain ``y = -t`` with ``t`` a name?"""
    if not _plain(stmt):
        return False
    value = stmt.value
    return isinstance(value, gast.UnaryOp) and isinstance(value.op, gast.USub) \
        and isinstance(value.operand, gast.Name)


def _plain(stmt):
    return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
        and isinstance(stmt.targets[0], gast.Name) and getattr(stmt, "saved", None) is None


def _arithmetic(node):
    return all(isinstance(n, _ARITHMETIC) or isinstance(n, _OPERATORS)
               for n in syntax.walk(node))
