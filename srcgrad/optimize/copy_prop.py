"""Copy propagation in straight-line runs of the backward sweep.

Before::                      After::

    d_mul = dy                    dx = dy * np.cos(x)
    dx = d_mul * np.cos(x)

A copy ``a = b`` (both names) is folded into the next statements of the same block that
read ``a``, provided neither name is reassigned in between and ``a`` is read nowhere
else; the copy itself is then dead.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain

from srcgrad import syntax
from srcgrad.optimize.uses import UseCache
from srcgrad.syntax import gast


def propagate_copies(body, reads=None, uses=None):
    """Fold the copies of ``body`` (see the module docstring); returns ``(body,
    changed)``. ``uses``: the ``UseCache`` of the passes run together."""
    uses = UseCache() if uses is None else uses
    if reads is None:
        if not any(_is_copy(stmt) for stmt in syntax.statements(body)):
            return body, False   # (nothing to fold: the reads need not be counted)
        reads = _read_counts(body, uses)
    changed = False
    for stmt in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt):
                new, inner_changed = propagate_copies(inner, reads, uses)
                setattr(stmt, field, new)
                changed |= inner_changed
    out = list(body)
    i = 0
    while i < len(out):
        stmt = out[i]
        if _is_copy(stmt):
            target, source = stmt.targets[0].id, stmt.value.id
            j = _single_reader(out, i, target, source, reads, uses)
            if j is not None:
                _rename_reads(out[j], target, source)
                uses.forget(out[j])
                if _is_copy(out[j]) and out[j].targets[0].id == out[j].value.id:
                    del out[j]  # the fold left `a = a`
                del out[i]
                reads[target] = 0
                reads[source] = reads.get(source, 0) + 1
                changed = True
                continue
        i += 1
    return out, changed


def _is_copy(stmt):
    return (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
            and isinstance(stmt.value, gast.Name) and getattr(stmt, "saved", None) is None)


def _rename_reads(stmt, old, new):
    """Rename the reads of ``old`` in ``stmt``; a store to ``old`` (``a = a + c``) stays."""
    for node in syntax.walk(stmt):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) and node.id == old:
            node.id = new


def _read_counts(body, uses):
    found = (uses.of(stmt) for stmt in body)
    return Counter(chain.from_iterable(names for each in found
                                       for names in (each.shape_reads, each.other_reads)))


def _single_reader(body, i, target, source, reads, uses):
    """Index of the one later simple statement reading ``target``, if folding is safe."""
    if reads.get(target, 0) != 1:
        return None
    for j in range(i + 1, len(body)):
        stmt = body[j]
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            return None
        defs, read = uses.defs_uses(stmt)
        if target in read:
            if isinstance(stmt, gast.AugAssign) or source in defs and target in defs:
                return None
            if isinstance(stmt, gast.Assign) and not isinstance(stmt.targets[0], gast.Name):
                return None
            return j
        if target in defs or source in defs:
            return None
    return None
