"""How the backward sweep adds a contribution to an adjoint (``AdjointBookkeeping``).

An adjoint starts as the first contribution itself (no zeros, no copy), is added to out
of place while its buffer may be shared with another name, and in place once it is this
function's own::

    dz = d_add                  # first contribution: shared with d_add
    dz = dz + d_mul             # second: a new buffer, now ours
    dz += d_sub                 # third: in place
    _sg.add_at(dz, i, d_item)   # an item: into a buffer we own (snapshot or zeros first)

A first contribution that is surely a new array (arithmetic, a product's adjoint such as
``_sg.matmul_adjoint_a``: ``fresh_value``) is this function's own from the start.

A container's adjoint starts as ``None`` slots (``_sg.slots_like``): its name is then in
``sparse``, and wherever it is read other than by ``add_at``, ``add_cotangents``,
``restructure`` or another name, ``_sg.dense`` builds the zeros first (``densify``).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.modes.reverse_common import OWNED, SHARED
from srcgrad.syntax import gast

# Runtime helpers whose result is a new array (or a number) whatever their arguments:
# a product (``np.matmul``, ``np.multiply.outer``, an einsum) or arithmetic, summed by
# ``unbroadcast`` at most, never one of the arguments themselves.
_NEW_ARRAYS = frozenset({"_sg.matmul_adjoint_a", "_sg.matmul_adjoint_b", "_sg.max_adjoint",
                         "_sg.unbroadcast_product"})
# ... and those that return their first argument, a new array made from it, or a view of
# it (``match_real``'s ``g.real``: the real part of an array only this adjoint holds).
_PASS_FIRST = frozenset({"_sg.unbroadcast", "_sg.spread_to", "_sg.match_real"})


def fresh_value(expr):
    """Is ``expr`` surely a new array (or a number) that no other name holds: arithmetic,
    or a helper that builds one? Then the adjoint it starts may be added to in place."""
    if isinstance(expr, (gast.BinOp, gast.UnaryOp)):
        return True
    if not isinstance(expr, gast.Call) or expr.keywords or not expr.args \
            or syntax.spreads(expr):
        return False
    helper = syntax.dotted_name(expr.func)
    if helper in _NEW_ARRAYS:
        return True
    return helper in _PASS_FIRST and fresh_value(expr.args[0])


class AdjointBookkeeping:
    """How ``ReverseMode`` adds contributions to adjoints: ``state`` maps a name to
    whether its adjoint's buffer is ``OWNED`` or ``SHARED`` (absent: symbolically zero
    so far). Held by the mode as ``mode.bookkeeping``."""

    def __init__(self, mode):
        self.mode = mode

    def accumulate(self, var, contribution, state, owned=None):
        """``dvar = contribution`` the first time, ``dvar += contribution`` after."""
        adjoint = self.mode.namer.adjoint(var)
        if isinstance(contribution, gast.Name) and contribution.id in self.mode.sparse:
            self.mode.sparse.add(adjoint)   # the same object: it may hold None slots too
        if owned is None:
            owned = fresh_value(contribution)
        if var not in state:
            state[var] = OWNED if owned else SHARED
            return [syntax.assign(adjoint, contribution)]
        # (``contribution`` goes into the statement as it is, not copied: a new tree, as
        # in ``dvar = contribution`` above)
        if var not in self.mode.numbers or var in self.mode.containers:   # never + on lists
            # a new container, but a tuple's sum is a tuple: an item added to it later
            # copies it into a list first (``own``)
            state[var] = OWNED if var not in self.mode.containers else SHARED
            added = syntax.quote("d = _sg.add_cotangents(d, c)", d=adjoint)
            added[0].value.args[1] = contribution
            return added
        sign = "+"
        if isinstance(contribution, gast.UnaryOp) and isinstance(contribution.op, gast.USub):
            sign, contribution = "-", contribution.operand   # d - c, not d + -c
        if state[var] == OWNED:
            added = syntax.quote(f"d {sign}= c", d=adjoint)
            added[0].value = contribution
            return added
        state[var] = OWNED
        added = syntax.quote(f"d = d {sign} c", d=adjoint)
        added[0].value.right = contribution
        return added

    def add_at(self, var, index, contribution, state):
        """``dvar[index] += contribution`` into a buffer this function owns; in a function
        written against the array API (``mode.namespaces``), as the functional update
        ``dvar = _sg.added_at(dvar, index, contribution)``: its arrays may be immutable
        (JAX)."""
        if self.mode.namespaces:
            out = [] if var in state else self.materialize(var, state)
            return out + syntax.quote("d = _sg.added_at(d, i, c)", d=self.mode.namer.adjoint(var),
                                      i=syntax.index_value(index), c=contribution)
        out = self.own(var, state)
        out += syntax.quote("_sg.add_at(d, i, c)", d=self.mode.namer.adjoint(var),
                            i=syntax.index_value(index), c=contribution)
        return out

    def own(self, var, state):
        adjoint = self.mode.namer.adjoint(var)
        if var not in state:
            return self.materialize(var, state)
        if state[var] == SHARED:
            state[var] = OWNED
            return syntax.quote("d = _sg.snapshot(d)", d=adjoint)
        return []

    def materialize(self, var, state):
        state[var] = OWNED
        adjoint = self.mode.namer.adjoint(var)
        if var in self.mode.containers:
            self.mode.sparse.add(adjoint)
            return syntax.quote("d = _sg.slots_like(x)", d=adjoint, x=var)
        return syntax.quote("d = _sg.zeros_like(x)", d=adjoint, x=var)

    def densify(self, var, state):
        """``dvar = _sg.dense(dvar, var)`` when ``var``'s adjoint may hold ``None`` slots
        and is about to be read as a whole."""
        adjoint = self.mode.namer.adjoint(var)
        if var not in state or adjoint not in self.mode.sparse:
            return []
        return syntax.quote("d = _sg.dense(d, x)", d=adjoint, x=var)
