"""Helpers that forward-mode and higher-order code calls."""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import _NDARRAY, as_array


def broadcast_tangent(t, ans):
    """The tangent ``t`` stretched to the shape of the value ``ans`` it belongs to."""
    if type(ans) is not _NDARRAY or np.shape(t) == ans.shape:
        return t
    return np.broadcast_to(t, ans.shape).copy()


def tangent_pairs(xs, xs_dot):
    """``for x in xs`` in forward mode: each item with its tangent. A dict yields its
    keys, which have none (0.0); its tangent may be sparse."""
    if type(xs) is dict:
        return zip(xs, [0.0] * len(xs), strict=True)
    return zip(xs, xs_dot, strict=True)


def broadcast_like(g, v):
    """The transpose of ``unbroadcast(v, x)``: ``g`` stretched back to ``v``'s shape."""
    if np.shape(g) == np.shape(v):
        return g
    out = np.broadcast_to(g, np.shape(v)).copy()
    return out[()] if out.ndim == 0 else out


def add_tangents(a, b):
    """``a + b`` for the tangents of a tuple result, item by item (a NamedTuple stays one)."""
    if isinstance(a, tuple):
        items = [add_tangents(x, y) for x, y in zip(a, b)]
        return type(a)(*items) if hasattr(a, "_fields") else tuple(items)
    return a + b


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
    """Stands in for a reverse-mode rule that a runtime helper does not have yet."""
    raise NotImplementedError(
        f"reverse mode over generated code that calls _sg.{name} is not supported yet; "
        "use forward mode (sg.jvp / sg.hvp) for this derivative")
