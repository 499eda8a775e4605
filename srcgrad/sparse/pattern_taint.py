"""Which names of a normalized function hold values computed from the wrt inputs'
values (``varied``), found flow-insensitively to a fixpoint; and which of them are
masks (a comparison's or a boolean operation's result).

A name read only for its shape (``x.shape``, ``len(x)``, ``np.zeros_like(x)``) is not
varied by it: the pattern is for inputs of the given shapes. The dependency sweep notes
its pattern as local where a varied name without dependencies chooses its structure
(``modes`` of ``sparse.pattern_mode``).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.rules import NONDIFF_ATTRIBUTES
from srcgrad.syntax import gast

_SHAPE_ONLY = frozenset({"len", "np.shape", "np.ndim", "np.size", "np.zeros_like",
                         "np.ones_like", "np.empty_like", "np.result_type", "type",
                         "isinstance"})


def varied_names(node, wrt):
    """(the names varied by the wrt inputs' values, the names holding masks)."""
    flows = list(_flows(node))
    varied = set(wrt)
    masks = set()
    for stmt_targets, value in flows:
        if isinstance(value, (gast.Compare, gast.BoolOp)) or (
                isinstance(value, gast.UnaryOp) and isinstance(value.op, gast.Not)):
            masks.update(stmt_targets)
    # each round that goes on adds a name: at most as many rounds as names
    for _ in fixpoint.rounds(len(flows) + 2, "the names varied by the inputs"):
        grown = False
        for targets, value in flows:
            if value is not None and not _shape_only(value) \
                    and set(syntax.loaded_names(value)) & varied \
                    and not set(targets) <= varied:
                varied.update(targets)
                grown = True
        if not grown:
            break
    return varied, masks


def _flows(node):
    """(names written, expression read) for each binding in ``node``."""
    for stmt in gast.walk(node):
        if isinstance(stmt, gast.Assign):
            targets = [n for t in stmt.targets for n in syntax.names_in(t, gast.Store)]
            bases = [t.value.id for t in stmt.targets
                     if isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name)]
            yield targets + bases, stmt.value
            for t in stmt.targets:   # an index written through varies the base
                if isinstance(t, gast.Subscript):
                    yield bases, t.slice
        elif isinstance(stmt, gast.For):
            yield syntax.names_in(stmt.target, gast.Store), stmt.iter
        elif isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call):
            # a call for its effect (``lst.append(v)``) may put ``v`` into any argument
            call = stmt.value
            written = [a.id for a in list(call.args) + [k.value for k in call.keywords]
                       if isinstance(a, gast.Name)]
            if isinstance(call.func, gast.Attribute) and isinstance(call.func.value, gast.Name):
                written.append(call.func.value.id)
            yield written, call


def _shape_only(value):
    if isinstance(value, gast.Attribute):
        return value.attr in NONDIFF_ATTRIBUTES
    if isinstance(value, gast.Call):
        return syntax.dotted_name(value.func) in _SHAPE_ONLY
    return False
