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
"""

from __future__ import annotations

from srcgrad.runtime.core import _DICT_VIEWS, zeros_like

__all__ = ["slots_like", "dense"]


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
