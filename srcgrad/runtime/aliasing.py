"""What generated code calls where a write may reach storage that another name also
refers to (see ``analysis.aliases``): a guard that refuses a write the compiler cannot
follow, the test of whether ``x += v`` updates ``x`` in place, and the private copy of an
argument the function writes into (the caller's arrays are never written)."""

import numpy as np

from srcgrad.errors import TransformError

__all__ = ["check_unshared", "updates_in_place", "private_copy", "is_view_of", "lone_slot"]

_MAX_DEPTH = 8   # how deep containers are searched for shared storage


def updates_in_place(value):
    """Does ``value += v`` update ``value`` itself (arrays and lists), not rebind?"""
    return isinstance(value, (np.ndarray, list))


_NO_ITEM = object()


def lone_slot(alone, value):
    """Are a list's slots still alone (``normalize.lone_slots``: each stored once, a new
    object) after ``value`` was appended: is it an ndarray owning its memory, which no
    other array of the list can overlap?"""
    return alone and type(value) is np.ndarray and value.base is None


def is_view_of(view, base, item=_NO_ITEM, name="", base_name="", line=None, alone=False):
    """Is the array ``view`` (bound as ``base[...]``, ``base.T``...) a view of ``base``
    rather than a copy or a number? Given ``item`` (``view`` was bound as ``base[item]``
    and is written through, to be written back as ``base[item] = view``): also when
    ``base`` is a list or dict whose slot ``item`` holds ``view`` itself; refused when
    ``view`` shares storage with ``base`` otherwise (another slot too, a tuple's item),
    which a write back into one slot would not follow. ``alone``: ``base`` is a list
    whose slots were proven never to share storage (``lone_slot``): no walk over them."""
    if isinstance(base, np.ndarray):
        return type(view) is np.ndarray and bool(np.may_share_memory(view, base))
    if item is _NO_ITEM:
        return False
    if isinstance(base, (list, dict)) and isinstance(view, (np.ndarray, list, dict)):
        key = _slot_key(base, item)
        if key is not None and base[key] is view:
            if alone is True and type(base) is list:
                return True
            others = base.values() if isinstance(base, dict) else base
            if not any(shares(view, other) for k, other in zip(_keys(base), others)
                       if k != key):
                return True
    if not shares(view, base):
        return False
    where = f"line {line}: " if line is not None else ""
    raise TransformError(
        f"{where}writing into `{name}` also changes `{base_name}`, which holds it in more "
        "than one place or cannot be written into (a tuple); srcgrad cannot follow such a "
        "write: copy the item first (`.copy()`, `list(...)`)")


def _slot_key(base, item):
    """The slot ``base[item]`` reads (a list index made non-negative), or None."""
    try:
        if isinstance(base, list):
            return range(len(base))[item] if isinstance(item, (int, np.integer)) else None
        return item if item in base else None
    except (IndexError, TypeError):
        return None


def _keys(base):
    return base.keys() if isinstance(base, dict) else range(len(base))


def check_unshared(written, other, name="", other_name="", line=None, inplace=False,
                   owned=True):
    """Refuse (``TransformError``) a write through ``written`` that would also change
    ``other`` (a view of it, the same object, or a container holding it; not ``owned``:
    a global or closure variable)."""
    if inplace and not updates_in_place(written):
        return
    if shares(written, other):
        where = f"line {line}: " if line is not None else ""
        if not owned:
            raise TransformError(
                f"{where}writing into `{name}` also changes `{other_name}`, which this "
                "function does not own (a global or closure variable, or storage it refers "
                "to): pass it in and return the new value, or copy it first (`.copy()`)")
        raise TransformError(
            f"{where}writing into `{name}` also changes `{other_name}` (one is a view of, "
            "the same object as, or an item of the other), which is read afterwards; "
            "srcgrad cannot follow such a write: copy one of them first (`.copy()`, "
            "`list(...)`)")


def shares(written, other, depth=0):
    """May a write through ``written`` change what ``other`` holds? Never when
    ``written`` is not an array, list or dict (a number): no walk through ``other``."""
    if not isinstance(written, (np.ndarray, list, dict)):
        return False
    if other is written:
        return True
    if isinstance(written, np.ndarray) and isinstance(other, np.ndarray):
        return bool(np.may_share_memory(written, other))
    if depth >= _MAX_DEPTH:
        return isinstance(other, (list, tuple, dict))
    if isinstance(other, (list, tuple)):
        return any(shares(written, item, depth + 1) for item in other)
    if isinstance(other, dict):
        return any(shares(written, item, depth + 1) for item in other.values())
    return False


def private_copy(value, others=(), line=None):
    """A copy of an argument the function writes into (arrays, lists, dicts and tuples
    copied all the way down; a read-only array's copy is read-only); refused when
    another argument shares its storage, since the compiler reads each argument as its
    own value."""
    for other in others:
        if shares(value, other) or shares(other, value):
            where = f" (line {line})" if line is not None else ""
            raise TransformError(
                f"the function writes into an argument{where} that shares storage with "
                "another argument (the same array passed twice, or a view of it): "
                "srcgrad differentiates each argument as its own value; pass copies")
    return _copy(value)


def _copy(value):
    if isinstance(value, np.ndarray):
        copy = value.copy()
        if not value.flags.writeable:   # a write into it raises, as into the argument
            copy.flags.writeable = False
        return copy
    if isinstance(value, list):
        return [_copy(item) for item in value]
    if isinstance(value, dict):
        return type(value)((key, _copy(item)) for key, item in value.items()) \
            if type(value) is not dict else {key: _copy(item) for key, item in value.items()}
    if type(value) is tuple:
        return tuple(_copy(item) for item in value)
    return value
