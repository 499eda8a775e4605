"""What makes a split backward function re-entrant: its own copies of the storage it
restores overwritten items into.

The forward sweep of ``R = np.eye(3); R[1, 1] = c`` saves the item before the write; the
backward sweep puts it back (``_sg.restore_item(R, (1, 1), stack.pop())``), so that what
it reads of ``R`` afterwards, and of every view of ``R``, is what the forward sweep read
there. Done on the residuals themselves, that leaves them in their state before the
writes: a second call of the same backward (``sg.vjp``'s, once per row of ``jacrev``), or
one on another thread, would start from there. So the backward starts with::

    saved = _sg.private_saves(saved, (3,))

which copies the values it restores into (residual 3) and makes every array among the
residuals that shares their storage (a view taken in the forward sweep, an earlier value
on the stack, an argument in a callee's residuals) the same view of the copy.
"""

import numpy as np

__all__ = ["private_saves"]

_ATOMS = (float, int, bool, complex, str, type(None), np.float64)
_MAX_DEPTH = 64   # how deep residuals are searched for views (nested callees' residuals)


def private_saves(saved, written):
    """``saved`` with the values at the positions ``written`` copied, and the arrays that
    share their storage made views of the copies (see the module docstring)."""
    copies = _Copies()
    for position in written:
        copies.own(saved[position])
    return copies.remap(saved, 0)


class _Copies:
    """The copies of one backward call: byte buffers copied from the written arrays'
    base storage, and copies of written lists, dicts and other arrays."""

    def __init__(self):
        self.buffers = []   # (low address, high address, the copied bytes)
        self.objects = {}   # id(original) -> its copy (also the remapped values seen)
        self.keep = []      # the originals whose ids key ``objects``

    def own(self, value):
        if id(value) in self.objects:
            return
        if type(value) is np.ndarray and value.dtype != object:
            self._copy_storage(value)
        elif isinstance(value, (list, dict)):
            self._note(value, type(value)(value))   # items remapped by ``remap``
        elif isinstance(value, np.ndarray):
            self._note(value, value.copy())
        elif hasattr(value, "__array_namespace__"):   # an array of another library
            self._note(value, value.__array_namespace__().asarray(value, copy=True))

    def _note(self, original, copy):
        self.objects[id(original)] = copy
        self.keep.append(original)

    def _copy_storage(self, array):
        root = array
        while isinstance(root.base, np.ndarray):
            root = root.base
        low, high = _bounds(root)
        if high <= low or any(lo <= low and high <= hi for lo, hi, _ in self.buffers):
            return
        buffer = np.empty(high - low, np.uint8)
        _view(buffer, low, root)[...] = root
        self.buffers.append((low, high, buffer))

    def remap(self, value, depth):
        if type(value) in _ATOMS or depth > _MAX_DEPTH:
            return value
        found = self.objects.get(id(value))
        if found is not None:
            if isinstance(found, (list, dict)) and id(found) not in self.objects:
                self._fill(value, found, depth)
            return found
        if type(value) is np.ndarray:
            return self._remap_array(value)
        if isinstance(value, (list, tuple, dict)):
            return self._remap_container(value, depth)
        return value

    def _remap_array(self, array):
        if not self.buffers or array.dtype == object:
            return array
        low, high = _bounds(array)
        for lo, hi, buffer in self.buffers:
            if lo <= low and high <= hi and high > low:
                view = _view(buffer, lo, array)
                view.flags.writeable = array.flags.writeable
                self._note(array, view)
                return view
        return array

    def _fill(self, original, copy, depth):
        """A written list or dict's copy, its items remapped (once)."""
        self.objects[id(copy)] = copy   # marks it filled; a cycle finds it filled
        self.keep.append(copy)
        items = original.items() if isinstance(original, dict) else enumerate(original)
        for key, item in list(items):
            copy[key] = self.remap(item, depth + 1)

    def _remap_container(self, value, depth):
        items = list(value.values()) if isinstance(value, dict) else list(value)
        remapped = [self.remap(item, depth + 1) for item in items]
        if all(new is old for new, old in zip(remapped, items)):
            return value
        if isinstance(value, dict):
            new = type(value)(zip(value.keys(), remapped)) if type(value) is dict else \
                _rebuilt_dict(value, remapped)
        elif isinstance(value, list):
            new = remapped if type(value) is list else type(value)(remapped)
        else:
            new = tuple(remapped) if type(value) is tuple else _rebuilt_tuple(value, remapped)
        self._note(value, new)
        self.objects[id(new)] = new   # (already remapped: never filled again)
        return new


def _rebuilt_dict(value, items):
    new = type(value)()
    new.update(zip(value.keys(), items))
    return new


def _rebuilt_tuple(value, items):
    make = getattr(type(value), "_make", None)   # a NamedTuple
    return make(items) if make is not None else type(value)(items)


def _bounds(array):
    """The addresses ``[low, high)`` of the bytes ``array`` covers."""
    low = high = array.__array_interface__["data"][0]
    if array.size == 0:
        return low, low
    for extent, stride in zip(array.shape, array.strides):
        step = (extent - 1) * stride
        low, high = (low + step, high) if step < 0 else (low, high + step)
    return low, high + array.itemsize


def _view(buffer, low, like):
    """The array over ``buffer`` (a copy of the bytes from address ``low`` on) that sits
    where ``like`` sits in the original storage."""
    offset = like.__array_interface__["data"][0] - low
    return np.ndarray(like.shape, like.dtype, buffer=buffer, offset=offset,
                      strides=like.strides)
