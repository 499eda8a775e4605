"""Pytrees: nested tuples, lists, dicts, NamedTuples and dataclasses of arrays.

``flatten(tree)`` gives the leaves (arrays, scalars) in a fixed order and a ``TreeDef``
that rebuilds the same structure around new leaves::

    leaves, treedef = flatten({"w": w, "b": (b1, b2)})   # [w, b1, b2]
    treedef.unflatten([2 * w, b1, b2])                    # {"w": 2 * w, "b": (b1, b2)}

Dicts keep their insertion order (a gradient dict is built from its primal's items, so
both flatten alike); ``None`` is an empty subtree, as in JAX. Needs only NumPy.
"""

from __future__ import annotations

import dataclasses

import numpy as np


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _is_dataclass_instance(x):
    return dataclasses.is_dataclass(x) and not isinstance(x, type)


@dataclasses.dataclass(frozen=True)
class TreeDef:
    """The structure of a pytree: a node kind, its type and keys, and its children."""

    kind: str                   # "leaf", "none", "tuple", "list", "dict", "namedtuple", "dataclass"
    node_type: type | None = None
    keys: tuple = ()
    children: tuple = ()

    @property
    def num_leaves(self):
        if self.kind == "leaf":
            return 1
        return sum(child.num_leaves for child in self.children)

    def unflatten(self, leaves):
        """This structure with ``leaves`` (in ``flatten``'s order) in it."""
        leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(f"the structure has {self.num_leaves} leaves; got {len(leaves)}")
        return self._build(iter(leaves))

    def _build(self, it):
        if self.kind == "leaf":
            return next(it)
        if self.kind == "none":
            return None
        items = [child._build(it) for child in self.children]
        if self.kind == "tuple":
            return tuple(items)
        if self.kind == "list":
            return items
        if self.kind == "dict":
            return dict(zip(self.keys, items))
        if self.kind == "namedtuple":
            return self.node_type(*items)
        instance = self.node_type.__new__(self.node_type)
        for name, value in zip(self.keys, items):
            object.__setattr__(instance, name, value)
        return instance


_LEAF = TreeDef("leaf")
_NONE = TreeDef("none")


def flatten(tree):
    """``(leaves, treedef)`` of ``tree``."""
    leaves = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree, leaves):
    if tree is None:
        return _NONE
    if _is_namedtuple(tree):
        kind, node_type, keys, items = "namedtuple", type(tree), tree._fields, tuple(tree)
    elif isinstance(tree, tuple):
        kind, node_type, keys, items = "tuple", tuple, (), tree
    elif isinstance(tree, list):
        kind, node_type, keys, items = "list", list, (), tree
    elif isinstance(tree, dict):
        kind, node_type, keys, items = "dict", dict, tuple(tree), tuple(tree.values())
    elif _is_dataclass_instance(tree):
        keys = tuple(field.name for field in dataclasses.fields(tree))
        kind, node_type, items = "dataclass", type(tree), [getattr(tree, k) for k in keys]
    else:
        leaves.append(tree)
        return _LEAF
    return TreeDef(kind, node_type, tuple(keys), tuple(_flatten(item, leaves) for item in items))


def leaves(tree):
    return flatten(tree)[0]


def tree_map(function, tree, *others):
    """``function`` applied leaf by leaf to ``tree`` and trees of the same structure."""
    tree_leaves, treedef = flatten(tree)
    other_leaves = []
    for other in others:
        flat, other_def = flatten(other)
        if other_def != treedef:
            raise ValueError(f"tree_map: the structures differ:\n  {treedef}\n  {other_def}")
        other_leaves.append(flat)
    return treedef.unflatten(function(*parts) for parts in zip(tree_leaves, *other_leaves))


def is_leaf_structure(treedef):
    """Is the tree a single leaf (an array or a scalar, not a container)?"""
    return treedef.kind == "leaf"


def ones_like(tree):
    """A tree of ones shaped like ``tree`` (float leaves for int ones)."""
    return tree_map(_ones_like_leaf, tree)


def zeros_like(tree):
    """A tree of zeros shaped like ``tree`` (float leaves for int ones)."""
    return tree_map(_zeros_like_leaf, tree)


def _ones_like_leaf(x):
    return _zeros_like_leaf(x) + 1


def _zeros_like_leaf(x):
    if isinstance(x, (bool, int, float)):
        return 0.0
    if isinstance(x, complex):
        return 0j
    dtype = getattr(x, "dtype", None)
    if dtype is not None and dtype.kind not in "fc":
        return np.zeros_like(x, dtype=float)
    return np.zeros_like(x)
