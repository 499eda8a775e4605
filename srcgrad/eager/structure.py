"""Nested structures (lists, tuples, dicts) flattened to leaves and rebuilt, as TF's
``nest`` does for ``GradientTape.gradient``'s ``target``/``sources``."""

from __future__ import annotations

import operator

_CONTAINERS = (list, tuple, dict)
_is = operator.is_


def flatten(value):
    """The leaves of ``value`` (dicts in sorted-key order)."""
    if type(value) is list:
        for item in value:
            if isinstance(item, _CONTAINERS):
                break
        else:
            return value
    if isinstance(value, dict):
        return [leaf for key in sorted(value) for leaf in flatten(value[key])]
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in flatten(item)]
    return [value]


def rebuild(structure, leaves):
    """``structure`` with its leaves replaced, in order, by ``leaves``."""
    it = iter(leaves)

    def build(value):
        if isinstance(value, dict):
            return {key: build(value[key]) for key in sorted(value)}
        if isinstance(value, (list, tuple)):
            items = [build(item) for item in value]
            if isinstance(value, list):
                return items
            return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
        return next(it)

    return build(structure)


def same(items, others):
    """Are ``items`` the very objects ``others`` are, in order? (Identity: a Variable's
    ``==`` gives a Tensor.)"""
    return len(items) == len(others) and all(map(_is, items, others))
