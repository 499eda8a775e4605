"""Arguments as trees of float leaves, for the finite-difference oracle.

A corpus argument may be a float, an array, or a container of them: a tuple, list or
dict, a NamedTuple, a dataclass or another object whose attributes hold the values.
``flatten`` lays its float leaves out as one vector, ``unflatten`` builds a fresh copy of
the argument from such a vector, and ``assert_same_structure`` checks that a gradient
has its argument's structure (same container types and keys, same leaf shapes, and an
array leaf's dtype).
"""

import copy
import dataclasses

import numpy as np


def _is_leaf(value):
    return isinstance(value, (float, np.floating, np.ndarray))


def _children(tree):
    """(key, child) pairs of a container, in a fixed order."""
    if isinstance(tree, dict):
        return list(tree.items())
    if isinstance(tree, (list, tuple)):
        return list(enumerate(tree))
    if dataclasses.is_dataclass(tree):
        return [(f.name, getattr(tree, f.name)) for f in dataclasses.fields(tree)]
    if hasattr(tree, "__dict__"):
        return list(vars(tree).items())
    return []


def _rebuild(tree, children):
    if isinstance(tree, dict):
        return dict(zip(tree, children))
    if hasattr(tree, "_fields"):
        return type(tree)(*children)
    if isinstance(tree, (list, tuple)):
        return type(tree)(children)
    result = copy.copy(tree)
    for (name, _), child in zip(_children(tree), children):
        object.__setattr__(result, name, child)
    return result


def flatten(tree):
    """The float leaves of ``tree`` as one float64 vector (ints and other constants are
    not leaves)."""
    if _is_leaf(tree):
        return np.ravel(np.asarray(tree, dtype=float))
    parts = [flatten(child) for _, child in _children(tree)]
    return np.concatenate(parts) if parts else np.zeros(0)


def unflatten(tree, vector):
    """A copy of ``tree`` whose float leaves are taken, in order, from ``vector``."""
    leaf, _ = _unflatten(tree, np.asarray(vector, dtype=float), 0)
    return leaf


def _unflatten(tree, vector, start):
    if isinstance(tree, np.ndarray):
        stop = start + tree.size
        return vector[start:stop].reshape(tree.shape).astype(tree.dtype), stop
    if isinstance(tree, (float, np.floating)):
        return type(tree)(vector[start]), start + 1
    children = []
    for _, child in _children(tree):
        child, start = _unflatten(child, vector, start)
        children.append(child)
    if not children:
        return copy.deepcopy(tree), start
    return _rebuild(tree, children), start


def assert_same_structure(gradient, primal, path="argument"):
    """``gradient`` has the structure of ``primal``: same container types and keys, the
    same shape for every float leaf, and an array's dtype for an array leaf."""
    if isinstance(primal, np.ndarray):
        assert isinstance(gradient, np.ndarray), f"{path}: {type(gradient).__name__}, not ndarray"
        assert gradient.shape == primal.shape, f"{path}: shape {gradient.shape} != {primal.shape}"
        assert gradient.dtype == primal.dtype, f"{path}: dtype {gradient.dtype} != {primal.dtype}"
        return
    if isinstance(primal, (float, np.floating)):
        assert np.ndim(gradient) == 0, f"{path}: shape {np.shape(gradient)} for a scalar"
        assert np.asarray(gradient).dtype.kind == "f", f"{path}: {type(gradient).__name__}"
        return
    children = _children(primal)
    if not children:
        return
    assert type(gradient) is type(primal), \
        f"{path}: gradient is a {type(gradient).__name__}, argument a {type(primal).__name__}"
    grad_children = _children(gradient)
    assert [k for k, _ in grad_children] == [k for k, _ in children], f"{path}: keys differ"
    for (key, g), (_, p) in zip(grad_children, children):
        assert_same_structure(g, p, f"{path}[{key!r}]")


def flatten_like(gradient, primal):
    """The leaves of ``gradient`` that correspond to ``primal``'s float leaves, as one
    vector laid out like ``flatten(primal)``."""
    if _is_leaf(primal):
        return np.ravel(np.asarray(gradient, dtype=float))
    grads = dict(_children(gradient))
    parts = [flatten_like(grads[key], child) for key, child in _children(primal)]
    return np.concatenate(parts) if parts else np.zeros(0)


def cast_arrays(tree, dtype):
    """A copy of ``tree`` whose float array leaves have ``dtype``."""
    if isinstance(tree, np.ndarray):
        return tree.astype(dtype) if tree.dtype.kind == "f" else tree.copy()
    children = _children(tree)
    if not children or _is_leaf(tree):
        return copy.deepcopy(tree)
    return _rebuild(tree, [cast_arrays(child, dtype) for _, child in children])
