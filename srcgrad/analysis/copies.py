"""Available copies and views: the must-analyses behind ``AliasFacts.copies_at`` and
``AliasFacts.views_at`` (``analysis.aliases``).

- copies: names surely bound to the same object just before a statement (``z = y``
  until either is rebound; joins intersect; after a ``for`` loop over a literal ``range``
  that surely runs, what held at the end of its body);
- views: ``view = expr`` of ``base`` (``base[i:j]``, ``base.T``, ``base.reshape(...)``)
  with no name in ``expr`` rebound since.

Before: ``z = y; v = z[1:]; z[0] = 1.0``. After: at ``z[0] = 1.0``, copies
``{frozenset({y, z})}`` and views ``{(v, (z, z[1:], (z,)))}``.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast

# Runtime helpers of eager units that return their argument itself when it is not a
# Variable or a constant Tensor (``normalize.variables``).
_IDENTITY_HELPERS = frozenset({"_sg.read_variable", "_sg.read_constant"})


_BLOCKS = (gast.If, gast.For, gast.While, gast.With, gast.Try)


def _available_copies(body, state, facts, paired=None):
    """Record ``copies_at`` for each statement of ``body``; return the state after.
    ``paired``: every name some pair has held so far (a name outside it is in no
    pair of any state: nothing to kill, no partner to look for)."""
    paired = set() if paired is None else paired
    for stmt in body:
        facts.copies_at[id(stmt)] = state
        if isinstance(stmt, gast.If):
            state = _available_copies(stmt.body, state, facts, paired) \
                & _available_copies(stmt.orelse, state, facts, paired)
        elif isinstance(stmt, _BLOCKS):
            inner = _kill(state, _rebound(stmt), paired)
            ends = [_available_copies(getattr(stmt, field), inner, facts, paired)
                    for field in ("body", "orelse", "finalbody")
                    if isinstance(getattr(stmt, field, None), list)]
            state = ends[0] if _surely_iterates(stmt) else inner
        else:
            state = _transfer(stmt, state, paired)
    return state


def _surely_iterates(stmt):
    """Is ``stmt`` a ``for`` loop over ``range`` of integer literals that runs at least
    once (and has no ``else``)? What holds at the end of its body (at the end of every
    iteration: a ``break`` is the body's last statement in normal form) holds after it."""
    if not (isinstance(stmt, gast.For) and not stmt.orelse and isinstance(stmt.iter, gast.Call)
            and isinstance(stmt.iter.func, gast.Name) and stmt.iter.func.id == "range"
            and not stmt.iter.keywords and 1 <= len(stmt.iter.args) <= 3):
        return False
    bounds = [_int_literal(arg) for arg in stmt.iter.args]
    if None in bounds or (len(bounds) == 3 and bounds[2] == 0):
        return False
    return len(range(*bounds)) > 0


def _int_literal(node):
    if isinstance(node, gast.Constant) and type(node.value) is int:
        return node.value
    if syntax.is_negative_literal(node) and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _transfer(stmt, state, paired):
    stored = _rebound(stmt)
    state = _kill(state, stored, paired)
    if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
            and isinstance(stmt.value, gast.Name) and stmt.value.id != stmt.targets[0].id:
        target, source = stmt.targets[0].id, stmt.value.id
        partners = {source}
        if source in paired:
            partners |= {n for pair in state if source in pair for n in pair}
        pairs = {frozenset((target, p)) for p in partners if p != target}
        paired.update(partners, (target,))
        state = state | pairs
    return state


def _available_views(body, state, facts):
    """Record ``views_at`` (facts ``(view, (base, expr))``: ``view = expr`` of ``base``,
    nothing in it rebound since) for each statement of ``body``; return the state after.
    A write *through* a name keeps its views views."""
    for stmt in body:
        facts.views_at[id(stmt)] = state
        stored = _rebound(stmt)
        state = frozenset(fact for fact in state
                          if not ({fact[0], fact[1][0]} | set(fact[1][2])) & stored)
        if isinstance(stmt, gast.If):
            state = _available_views(stmt.body, state, facts) \
                & _available_views(stmt.orelse, state, facts)
        elif isinstance(stmt, _BLOCKS):
            ends = [_available_views(getattr(stmt, field), state, facts)
                    for field in ("body", "orelse", "finalbody")
                    if isinstance(getattr(stmt, field, None), list)]
            state = ends[0] if _surely_iterates(stmt) else state
        elif isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            target, view = stmt.targets[0].id, _view_expression(stmt.value)
            if view is not None and target not in view[2]:
                state = state | {(target, (view[0], stmt.value, view[2]))}
            elif _identity_argument(stmt.value) is not None:   # q = _sg.read_variable(t):
                source = _identity_argument(stmt.value)   # t itself when t is an array
                state = state | {(target, fact[1]) for fact in state if fact[0] == source}
    return state


def _identity_argument(value):
    """``t`` for ``_sg.read_variable(t)`` (a name): ``t`` itself unless ``t`` holds a
    Variable or a constant, never an array (what a view is)."""
    if isinstance(value, gast.Call) and syntax.dotted_name(value.func) in _IDENTITY_HELPERS \
            and len(value.args) == 1 and not value.keywords \
            and isinstance(value.args[0], gast.Name):
        return value.args[0].id
    return None


_VIEW_METHODS = frozenset({"reshape", "transpose", "ravel", "swapaxes", "squeeze"})


def _view_expression(value):
    """``(base, expr, names read)`` when ``value`` is ``base[basic index]``, ``base.T``
    or ``base.reshape(...)``-like with atoms for arguments (a view when base is an
    array), else None."""
    if isinstance(value, gast.Subscript) and isinstance(value.value, gast.Name):
        base = value.value.id
    elif isinstance(value, gast.Attribute) and isinstance(value.value, gast.Name) \
            and value.attr in ("T", "mT"):
        base = value.value.id
    elif isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) \
            and isinstance(value.func.value, gast.Name) and value.func.attr in _VIEW_METHODS \
            and not value.keywords and all(
                isinstance(a, (gast.Name, gast.Constant)) for a in value.args):
        base = value.func.value.id
    else:
        return None
    names = tuple(syntax.loaded_names(value))
    if any(isinstance(n, gast.Call) for n in syntax.walk(value)) and not isinstance(
            value, gast.Call):
        return None
    return base, value, names


def _rebound(stmt):
    """Names ``stmt`` (with its nested blocks) binds, except by ``x += v``: in place for
    the arrays and lists that have views and aliases (a number has none), so ``x``
    stays the same object (the rebinding of an alias after it is guarded by
    ``_sg.updates_in_place``)."""
    nodes = syntax.walk(stmt)
    in_place = {id(n.targets[0]) for n in nodes if isinstance(n, gast.Assign)
                and getattr(n, "inplace", False) and isinstance(n.targets[0], gast.Name)}
    return {n.id for n in nodes if isinstance(n, gast.Name)
            and isinstance(n.ctx, gast.Store) and id(n) not in in_place}


def _kill(state, names, paired):
    names = set(names) & paired   # (the others are in no pair)
    if not names:
        return state
    return frozenset(pair for pair in state if not pair & names)
