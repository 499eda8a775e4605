"""NumPy's index tricks read by subscript: ``np.r_[x, c]``, ``np.c_[a, b]`` (joins) and
``np.mgrid[0:2, 0:3]``, ``np.ogrid[...]`` (grids of constants); ``normalize.index_objects``
writes such a subscript as a call of these helpers.

A join is linear in its data items (arrays, lists, numbers); slices (``0:3``, ``0:1:5j``)
and directive strings (``'0,2'``) only add constants. Where each item lands is read from
NumPy itself: the same subscript with item ``j`` replaced by the code ``(j + 1) * 1j``
(slices give real values, so a code marks exactly the item's elements), so every
directive NumPy accepts is followed, in NumPy's order::

    np.r_[x, 0:2]    ->   layout [1j, 1j, 1j, 0, 1]   (x of three elements)
    cotangent of x   =    g where the layout is 1j, in that order
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.shapes import match_real

__all__ = ["concat_items", "concat_items_adjoint", "concat_items_tangent", "grid_items",
           "library_item"]


def concat_items(maker, key):
    """``maker[key]``, ``maker`` being ``np.r_`` or ``np.c_``."""
    return maker[key]


def grid_items(maker, key):
    """``maker[key]``, ``maker`` being ``np.mgrid`` or ``np.ogrid``: constants (their
    slices' bounds are refused where they carry a derivative: see ``builtins.slice``)."""
    return maker[key]


def library_item(obj, key):
    """``obj[key]`` for a NumPy or SciPy object that is not an array (its row refuses a
    ``key`` that carries a derivative)."""
    return obj[key]


def _items(key):
    return key if type(key) is tuple else (key,)


def _is_data(item):
    return not isinstance(item, (slice, str)) and item is not None and item is not Ellipsis


def _layout(maker, key):
    """``maker[key]`` with each data item replaced by its code (see the module doc)."""
    items = _items(key)
    coded = tuple(np.full(np.shape(item), (j + 1) * 1j) if _is_data(item) else item
                  for j, item in enumerate(items))
    return np.asarray(maker[coded if type(key) is tuple else coded[0]])


def concat_items_adjoint(g, maker, key):
    """The cotangent of ``key`` in ``maker[key]``: for each data item, the elements of
    ``g`` it became (in its shape and kind: real for a real item); None for a slice or a
    string."""
    layout = np.ravel(_layout(maker, key).imag)
    flat = np.ravel(g)
    out = []
    for j, item in enumerate(_items(key)):
        if not _is_data(item):
            out.append(None)
            continue
        piece = match_real(np.reshape(flat[layout == j + 1], np.shape(item)), np.asarray(item))
        out.append(piece if np.ndim(item) or isinstance(item, np.ndarray) else piece[()])
    return tuple(out) if type(key) is tuple else out[0]


def concat_items_tangent(key_dot, maker, key):
    """The tangent of ``maker[key]`` from the tangents of ``key``'s data items (zeros
    where a slice or a string put constants)."""
    layout = _layout(maker, key)
    dots = _items(key_dot) if type(key) is not tuple or type(key_dot) is tuple \
        else tuple(key_dot)   # (a cotangent of the items made dense: a list or an array)
    kinds = [np.asarray(d).dtype for d, item in zip(dots, _items(key))
             if _is_data(item) and isinstance(d, (np.ndarray, np.generic, float, complex, int))]
    out = np.zeros(layout.shape, dtype=np.result_type(*kinds, np.float64))
    flat = out.reshape(-1)
    codes = np.ravel(layout.imag)
    for j, (item, dot) in enumerate(zip(_items(key), dots)):
        if _is_data(item) and dot is not None and not isinstance(dot, dict):
            # (None, {}: a symbolic zero, a zero of an object)
            flat[codes == j + 1] = np.ravel(np.broadcast_to(dot, np.shape(item)))
    return out
