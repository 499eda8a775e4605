"""Container cotangents with symbolic zeros: one ``None`` slot per item not yet reached.

The backward sweep of ``W, b = params[k]`` adds ``dW`` and ``db`` into the cotangent of
``params``. Built as zeros, that cotangent costs a zero-filled array per item and an
addition per contribution; built as slots, the first contribution to an item is stored
as it is and an item nothing reached is never built::

    dparams = _sg.slots_like(params)     # [None, None, None]
    _sg.add_at(dparams, 2, d_value)      # [None, None, [dW, db]]
    ...
    return _sg.restructure(dparams, params)   # zeros only where still None

``add_at``, ``add_cotangents``, ``get_item``, ``item_adjoint`` and ``restructure`` read a
``None`` slot as zeros. Anything else that reads such a cotangent (a rule's adjoint, a
tuple's items) is given ``dense(d, x)``, which builds the zeros it needs.

A cotangent's form follows its value's type, and so does what its keys mean:

- *a NamedTuple's cotangent* (``r = np.linalg.svd(a)``): the NamedTuple, a list of its
  items, or a sparse dict holding a field at its name (``r.S`` written, ``add_attr``),
  its position (``r[1]``, ``add_at``) or both; the field's cotangent is the sum of both
  keys (``restructure`` and ``field_cotangent`` read it so).
- *a dict's cotangent* (the cotangent of any dict the program holds, such a sparse
  dict included, as a derivative of generated code has): per key, a missing key zero.
  It may hold a key its dict lacks (``add_at(d, 0, item)`` passes the cotangent of
  ``d`` after the call to ``d`` before it), which is zero for that dict.

Every helper that gives a value in another form than its argument's has, as its
transpose, the helper that gives the argument's cotangent in the argument's form:

- ``restructure`` (a sparse dict to the NamedTuple) and ``restructure_transpose``, which
  gives each key of the sparse dict the whole cotangent of its field; that one's own
  transpose reads only the keys it gave (``at_keys_of``) and adds a field's keys.
- ``snapshot`` and ``add_cotangents`` (a NamedTuple gone into a sparse dict at its
  fields' names, a list at its positions) and ``cotangent_part``, the sum's cotangent at
  those keys only; its transpose ``cotangent_embedded`` puts them back.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import _DICT_VIEWS, add_cotangents, zeros_like
from srcgrad.runtime.structures import as_sparse, fields_of, is_structure

__all__ = ["slots_like", "dense", "restructure_transpose", "at_keys_of", "cotangent_part",
           "cotangent_embedded"]


def slots_like(x):
    """A zero cotangent for ``x``: a list of ``None`` slots for a list, a tuple (not a
    NamedTuple) or a dict view, as ``zeros_like`` for anything else."""
    kind = type(x)
    if kind is list or kind is tuple or isinstance(x, _DICT_VIEWS):
        return [None] * len(x)
    return zeros_like(x)


def dense(d, x):
    """The cotangent ``d`` of ``x`` with every ``None`` slot, at any depth, made zeros
    shaped like the item of ``x`` it stands for. Every item of ``d`` is kept: a list
    that lost items since (``lst.pop()`` in the forward sweep) cannot shorten it, and a
    ``None`` slot whose item is gone is an error, never a dropped gradient."""
    if d is None:
        if x is _GONE:
            raise RuntimeError(
                "srcgrad: a list's item was removed after the point its cotangent stands "
                "for, and its zero cannot be built; please report this program")
        return zeros_like(x)
    if type(d) is list:
        for item in d:
            if item is None or type(item) is list or type(item) is dict:
                items = list(x) if isinstance(x, _DICT_VIEWS) else x
                return [dense(di, _part(items, i)) for i, di in enumerate(d)]
        return d
    if type(d) is dict:
        for item in d.values():
            if item is None or type(item) is list or type(item) is dict:
                return {k: dense(v, _part(x, k)) for k, v in d.items()}
    return d


_GONE = object()   # the item of a list that no longer has it


def _part(x, key):
    """The item or field of ``x`` that a sparse cotangent's ``key`` stands for."""
    if x is _GONE:
        return _GONE
    if isinstance(x, (list, tuple)) and type(key) is int and not -len(x) <= key < len(x):
        return _GONE
    if isinstance(x, (dict, list, tuple)) and not (hasattr(x, "_fields") and type(key) is str):
        return x[key]
    return getattr(x, key)


def restructure_transpose(g, v, x):
    """The transpose of ``restructure(v, x)`` in ``v``: ``g``, a cotangent of ``x`` in any
    form ``restructure`` reads, given in the form of ``v``. A NamedTuple's sparse dict
    gets at each of its keys, name or position, the whole cotangent of that key's field
    (``restructure`` adds a field's two keys); a list, tuple or dict item by item. Its
    own transpose in ``g`` is ``restructure_transpose(h, g, x)``::

        restructure_transpose({1: gS}, {'S': a, 1: b}, svd_result)  ->  {'S': gS, 1: gS}
    """
    if g is None:
        return None if v is None else zeros_like(v)
    if v is None or x is _GONE or _is_leaf(x):   # (a zero slot: its cotangent as it is)
        return g
    if hasattr(x, "_fields") and isinstance(x, tuple):
        fields = x._fields
        if type(v) is dict:
            return {key: _transposed(_field_part(g, _position(key, fields), fields), v[key],
                                     x[_position(key, fields)]) for key in v}
        return _like(v, [_transposed(_field_part(g, i, fields), vi, xi)
                         for i, (vi, xi) in enumerate(zip(v, x))])
    # (a list or a dict may have changed since restructure read it, as a stack the sweep
    # pops: an item it no longer holds has its cotangent as it is)
    if isinstance(x, (list, tuple)) and isinstance(v, (list, tuple)):
        return _like(v, [_transposed(_item_part(g, i), vi, _held(x, i))
                         for i, vi in enumerate(v)])
    if type(v) is dict and (isinstance(x, (dict, list, tuple)) or hasattr(x, "__dict__")):
        return {key: _transposed(_item_part(g, key), v[key], _held(x, key)) for key in v}
    return g


def _held(x, key):
    """``x``'s item or field ``key``, ``_GONE`` where it holds none now."""
    if isinstance(x, dict):
        return x.get(key, _GONE)
    if isinstance(x, (list, tuple)) and not (hasattr(x, "_fields") and type(key) is str):
        return x[key] if type(key) is int and -len(x) <= key < len(x) else _GONE
    return getattr(x, key, _GONE)


def at_keys_of(g, v):
    """``g``, a dict's cotangent, at the keys ``v`` holds only (at any depth): the
    cotangent of a value that holds no other keys, as ``restructure_transpose`` gives
    one. A dict's cotangent may hold more keys (``add_at(d, 0, item)`` gives the
    cotangent of ``d`` before the call the key ``0`` it did not hold), which are zeros
    for such a value. Linear in ``g``, its own transpose."""
    if type(g) is dict and type(v) is dict:
        return {key: at_keys_of(item, v[key]) for key, item in g.items() if key in v}
    if isinstance(g, (list, tuple)) and isinstance(v, (list, tuple)) and len(g) == len(v) \
            and any(type(item) is dict for item in g):
        return _like(g, [at_keys_of(gi, vi) for gi, vi in zip(g, v)])
    return g


def _transposed(g, v, x):
    """An item's transpose, ``None`` (a symbolic zero) where ``v`` holds none."""
    return None if v is None and g is None else restructure_transpose(g, v, x)


def _is_leaf(x):
    return type(x) is np.ndarray or isinstance(x, (int, float, complex, np.generic)) \
        or getattr(type(x), "srcgrad_opaque", False)


def _position(key, fields):
    return key if type(key) is int else fields.index(key)


def _field_part(g, i, fields):
    """Field ``i``'s cotangent in ``g``, a cotangent of a NamedTuple: itself, a list or
    tuple of its items, or a sparse dict holding it at its name, its position or both."""
    if type(g) is dict:
        parts = [g[key] for key in (fields[i], i) if g.get(key) is not None]
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else add_cotangents(parts[0], parts[1])
    return g[i]


def _item_part(g, key):
    """Item ``key``'s cotangent in ``g``, a cotangent of a list, tuple, dict or object."""
    if type(g) is dict:
        return g.get(key)
    if isinstance(g, (list, tuple)):
        return g[key] if type(key) is int and -len(g) <= key < len(g) else None
    return getattr(g, key, None)


def _like(v, items):
    """``items`` in the container type of ``v`` (a list, a tuple or a NamedTuple)."""
    if type(v) is list:
        return items
    if hasattr(v, "_fields"):
        return type(v)(*items)
    return tuple(items)


def cotangent_part(g, a, total):
    """The cotangent of ``a`` given ``g``, that of ``total``, a value ``a`` went into as
    it is (``add_cotangents(a, b)``, ``snapshot(a)``), in the form of ``a``. Where
    ``total`` is a sparse dict and ``a`` is not, ``a`` went in at some of its keys (a
    NamedTuple's or an object's fields at their names, a list's items at their
    positions) and its cotangent is ``g`` at those keys only, as a dict's is per key::

        cotangent_part({'S': gS, 1: h}, svd_result, {'S': s, 1: t})  ->  {'S': gS}
    """
    if type(total) is not dict or type(a) is dict or a is None or g is None:
        return g
    if _by_position(a):
        return [g.get(i) for i in range(len(a))] if type(g) is dict else g
    return _at_names(as_sparse(g), a) if is_structure(a) else g


def cotangent_embedded(h, a, total):
    """The transpose of ``cotangent_part(g, a, total)`` in ``g``: ``h``, a cotangent in
    the form of ``a``, at the keys ``a`` went into ``total`` at (itself where ``total``
    is no sparse dict, or ``a`` is one). Its own transpose is ``cotangent_part``."""
    if type(total) is not dict or type(a) is dict or a is None or h is None:
        return h
    if _by_position(a):
        return as_sparse(h) if type(h) is not dict else h
    return _at_names(as_sparse(h), a) if is_structure(a) else h


def _by_position(a):
    return isinstance(a, _DICT_VIEWS) or (isinstance(a, (list, tuple))
                                          and not hasattr(a, "_fields"))


def _at_names(g, a):
    """The dict ``g`` at the names of ``a``'s fields only."""
    return {name: g[name] for name in fields_of(a) if name in g}
