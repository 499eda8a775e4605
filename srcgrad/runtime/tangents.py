"""Helpers that forward-mode and higher-order code calls."""

from __future__ import annotations

import numpy as np

from srcgrad.errors import MissingRuleError
from srcgrad.runtime.core import _NDARRAY, add_cotangents, as_array, is_structure, restructure
from srcgrad.runtime.slots import slots_like


def broadcast_tangent(t, ans):
    """The tangent ``t`` stretched to the shape of the value ``ans`` it belongs to."""
    if type(ans) is not _NDARRAY or np.shape(t) == ans.shape:
        return t
    return np.broadcast_to(t, ans.shape).copy()


def tangent_pairs(xs, xs_dot):
    """``for x in xs`` in forward mode: each item with its tangent, as a list of pairs. A
    dict yields its keys, which have none (0.0); its tangent may be sparse. Linear in
    ``xs`` and ``xs_dot`` together (its rows: ``pairs_cotangent`` is its transpose)."""
    if type(xs) is dict:
        return list(zip(xs, [0.0] * len(xs), strict=True))
    return list(zip(xs, xs_dot, strict=True))


def pairs_cotangent(g, like, position):
    """The cotangent of ``like`` (``xs``, ``position`` 0, or ``xs_dot``, 1) from ``g``,
    that of ``tangent_pairs(xs, xs_dot)``: a list with one ``[item's, its tangent's]``
    slot list (or None) per pair; a dict's keys carry none."""
    if type(like) is dict or (position == 1 and type(like) is float):
        return slots_like(like)
    items = [None if pair is None else pair[position] for pair in g]
    if type(like) is list or type(like) is tuple:
        return items
    out = np.zeros(np.shape(like), dtype=np.result_type(like, *[i for i in items
                                                                 if i is not None]))
    for i, item in enumerate(items):
        if item is not None:
            out[i] += item
    return out


def pairs_cotangent_transpose(h, position, count):
    """The transpose of ``pairs_cotangent``: ``h`` (a cotangent of ``xs`` or ``xs_dot``)
    put back into the pairs' slots at ``position``."""
    if type(h) is dict:
        return [None] * count
    return [[h[i], None] if position == 0 else [None, h[i]] for i in range(count)]


def broadcast_like(g, v):
    """The transpose of ``unbroadcast(v, x)``: ``g`` stretched back to ``v``'s shape."""
    if np.shape(g) == np.shape(v):
        return g
    out = np.broadcast_to(g, np.shape(v)).copy()
    return out[()] if out.ndim == 0 else out


def add_tangents(a, b):
    """``a + b`` for the tangents of a tuple result, item by item (a NamedTuple stays one);
    anything else as ``add_cotangents`` adds (lists, sparse dicts, objects' fields)."""
    if type(a) is dict and type(b) is not dict:
        a, b = b, a
    if type(b) is dict and type(a) is not dict and (isinstance(a, tuple) or is_structure(a)):
        b = restructure(b, a)   # a sparse zero (``zeros_like`` of a NamedTuple) keeps a's type
    if isinstance(a, tuple):
        items = [add_tangents(x, y) for x, y in zip(a, b, strict=True)]
        return type(a)(*items) if hasattr(a, "_fields") else tuple(items)
    return add_cotangents(a, b)   # lists item by item, dicts key by key, objects by field


def added_at(dx, index, g):
    """``add_at`` without the in-place write: a new buffer holding ``dx`` plus ``g`` at
    ``index``."""
    from srcgrad.runtime import foreign
    from srcgrad.runtime.core import add_at, snapshot
    from srcgrad.runtime.namespaces import foreign_namespace

    xp = foreign_namespace(dx)
    if xp is not None:
        return foreign.xp_add_at(xp, dx, index, g, copy=True)
    return add_at(snapshot(dx), index, g)


def _power_domain(x, *others):
    """``x`` as the base of ``x ** p`` and where its log is taken: a complex power (any
    of them complex: NumPy's principal log) off ``x == 0``, a real one where ``x > 0``."""
    if np.iscomplexobj(x) or any(np.iscomplexobj(v) for v in others):
        x = as_array(x, complex)
        return x, x != 0
    x = as_array(x, float)
    return x, x > 0


def safe_ratio(p, x, like=None):
    """``p / x`` where ``x > 0``, else 0 (the derivative of ``power_exponent_partial``);
    for a complex power (``p``, ``x`` or ``like`` complex) wherever ``x != 0``."""
    x, keep = _power_domain(x, p, like)
    return np.where(keep, p / np.where(keep, x, 1.0), 0.0)


def safe_log(x, like=None):
    """``log(x)`` where ``x > 0``, else 0; the principal log wherever ``x != 0`` for a
    complex power (``x`` or ``like`` complex)."""
    x, keep = _power_domain(x, like)
    return np.where(keep, np.log(np.where(keep, x, 1.0)), 0.0)


def missing_transpose(name):
    """Stands in for a reverse-mode rule that a runtime helper does not have yet: a row
    without a derivative, which raises when the code that calls it runs."""
    raise MissingRuleError(
        f"reverse mode over generated code that calls _sg.{name} is not supported yet; "
        "use forward mode (sg.jvp / sg.hvp) for this derivative")
