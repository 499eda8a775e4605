"""Helpers that reverse mode over generated code calls: the transposes of the adjoint
helpers (an adjoint is linear in its cotangent, so differentiating a gradient again needs
that linear map's transpose) and the adjoints of list pops.

Before (a generated gradient)::        After (reverse mode over it)::

    d_sum_in = _sg.cumsum_adjoint(g, a, None)      dg = np.cumsum(d_sum_in)
    y = stack.pop()                                _sg.unpop(dstack, dy)
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.adjoints import max_adjoint
from srcgrad.runtime.core import add_at, snapshot, zeros_like
from srcgrad.runtime.tangents import broadcast_like

__all__ = ["list_adjoint", "tuple_adjoint", "last_items", "inserted_item", "remove_inserted",
           "placed_at", "unpop", "unpop_at", "saved_item_adjoint", "pieces_like",
           "max_adjoint_transpose", "array_adjoint_transpose", "concatenate_adjoint_transpose",
           "sum_of_sequence_transpose", "placed_item", "saved_item_adjoint_transpose"]


def list_adjoint(g, v):
    """Adjoint of ``list(v)`` (a generated backward sweep copies its stack): the list
    cotangent ``g``, stacked into an array when ``v`` was one."""
    if type(v) is np.ndarray:
        return np.array(pieces_like(g, v))
    return g


def tuple_adjoint(g, v):
    """Adjoint of ``tuple(v)``: the cotangent ``g`` (a sequence of item cotangents) in
    ``v``'s own kind: a list for a list, an array for an array, a tuple otherwise."""
    if type(v) is np.ndarray:
        return np.array(pieces_like(g, v))
    return list(g) if isinstance(v, list) else tuple(g)


def unpop(dlist, g, count=None):
    """Adjoint of ``lst.pop()`` (``count=None``) or of ``_sg.pop_last(lst, count)``: push
    the popped values' cotangent ``g`` back on the list's cotangent (zeros when ``g`` is
    None, the value having been dropped)."""
    if count is None:
        dlist.append(0.0 if g is None else snapshot(g))
    else:
        dlist.extend([0.0] * count if g is None else [snapshot(item) for item in g])
    return dlist


def unpop_at(dlist, index, g):
    """Adjoint of ``lst.pop(index)`` (or ``dct.pop(key)``): put ``g`` back where the item
    was."""
    if type(dlist) is dict:
        dlist[index] = snapshot(g)
        return dlist
    if index < 0:
        index += len(dlist) + 1
    dlist.insert(index, snapshot(g))
    return dlist


def last_items(dlist, count=None):
    """The last item of a list cotangent (``count=None``) or a copy of its last ``count``
    items: what ``unpop`` pushed."""
    if count is None:
        return dlist[-1]
    return list(dlist[len(dlist) - count:])


def _inserted_position(dlist, index):
    return index if type(dlist) is dict or index >= 0 else index + len(dlist)


def inserted_item(dlist, index):
    """The item ``unpop_at(dlist, index, g)`` put back (read after the insertion)."""
    return dlist[_inserted_position(dlist, index)]


def remove_inserted(dlist, index):
    """Undo ``unpop_at(dlist, index, g)``."""
    dlist.pop(_inserted_position(dlist, index))
    return dlist


def placed_at(g, v, index):
    """Zeros shaped like the list (or dict) ``v`` holding ``g`` at ``index`` (a position,
    a key, or ``None`` for the last item, or a slice): transposes the reads above."""
    out = zeros_like(v)
    if index is None:
        index = len(out) - 1
    return add_at(out, index, g)


def saved_item_adjoint(g, v, index):
    """Transpose of ``saved_item(v, index)``: ``g`` placed at ``index`` in zeros shaped
    like ``v`` (nothing when the item did not exist: a new dict key)."""
    if type(v) is dict and index not in v:
        return {}
    if type(v) is dict:
        return {index: g}
    return add_at(zeros_like(v), index, g)


def pieces_like(g, arrays):
    """The items of a list cotangent as arrays shaped like ``arrays``' items (an item
    may be a scalar zero standing for a zero array)."""
    return [np.broadcast_to(gi, np.shape(a)) for gi, a in zip(g, arrays)]


def concatenate_adjoint_transpose(g, arrays, axis):
    """Transpose of ``concatenate_adjoint``: the pieces concatenated back."""
    pieces = pieces_like(g, arrays)
    if axis is None:
        return np.concatenate([np.ravel(p) for p in pieces])
    return np.concatenate(pieces, axis)


def max_adjoint_transpose(g, a, ans, axis, keepdims):
    """Transpose of ``max_adjoint`` in its cotangent: the winners' share of ``g`` summed
    over the reduced axes."""
    weights = max_adjoint(np.ones(np.shape(ans)), a, ans, axis, keepdims)
    return np.sum(g * weights, axis=axis, keepdims=keepdims)


def array_adjoint_transpose(g, v, obj):
    """Transpose of ``array_adjoint(v, obj)``: the nested cotangent ``g`` (shaped like
    ``obj``) as an array shaped like ``v``."""
    return np.reshape(np.array(_leaves_like(g, obj), dtype=np.result_type(v, float)),
                      np.shape(v))


def _leaves_like(g, obj):
    if isinstance(obj, (list, tuple)):
        return [_leaves_like(gi, item) for gi, item in zip(g, obj)]
    return np.broadcast_to(g, np.shape(obj))


def sum_of_sequence_transpose(g, v, iterable):
    """Transpose of ``sum_of_sequence_adjoint(v, iterable)`` (the cotangent of ``sum(xs)``
    handed to each item) in ``v``: the items' cotangents ``g`` stretched back to ``v``'s
    shape and added (``sum([x, y])``'s pullback differentiated again)."""
    if type(iterable) is np.ndarray:
        return np.sum(g, axis=0) if iterable.ndim else g
    total = None
    for item in g:
        if item is not None:
            part = broadcast_like(item, v)
            total = part if total is None else total + part
    return zeros_like(v) if total is None else total


def placed_item(dlist, index):
    """The item ``placed_at(g, dlist, index)`` placed (``None``: the last): its transpose."""
    return dlist[len(dlist) - 1 if index is None else index]


def saved_item_adjoint_transpose(dv, g, v, index):
    """Transpose of ``saved_item_adjoint(g, v, index)``: the cotangent ``dv`` read back at
    ``index`` (zeros like ``g`` where the item did not exist: a new dict key)."""
    if type(v) is dict:
        return dv[index] if index in v and type(dv) is dict and index in dv else zeros_like(g)
    return dv[index]
