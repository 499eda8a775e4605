"""What a derivative is taken with respect to must hold a number: a ``wrt`` argument
that is a string, None, a bool, or a structure without any number has no derivative
(JAX and autograd refuse it too), and its gradient is not an empty dict or a zero. A
container with nothing inside (``()``, ``[]``, ``{}``, nested ones) is the space with no
coordinates, as in autograd and JAX: its derivative is the same empty container.

Ints count as numbers: srcgrad differentiates an int argument as the float it
converts to (``sg.grad(lambda x, n: x ** n, 1)(2.0, 3)`` is ``8 log 2``)."""

import dataclasses
import types

import numpy as np

from srcgrad.errors import GradientError, NotDifferentiableArgumentError
from srcgrad.runtime.core import zeros_like, zeros_like_structure

__all__ = ["check_wrt", "wrt_zeros"]

_NUMERIC_KINDS = frozenset("iufc")
_MAX_DEPTH = 32


def wrt_zeros(x, name, structure=False):
    """The gradient of a ``wrt`` argument that the output does not depend on: zeros
    (in ``x``'s structure when ``structure``), once ``x`` is known to hold a number."""
    check_wrt(x, name)
    if _empty_structure(x, 0):
        return _empty_like(x)
    return zeros_like_structure(x) if structure else zeros_like(x)


def _empty_like(x):
    if type(x) is dict:
        return {k: _empty_like(v) for k, v in x.items()}
    return type(x)(_empty_like(v) for v in x)


def check_wrt(x, name):
    """Raise ``NotDifferentiableArgumentError`` naming ``name`` unless ``x`` holds a
    number (an int, float or complex, a numeric array, or a container holding one)."""
    if type(x) is np.ndarray and x.dtype.kind in _NUMERIC_KINDS or type(x) is float:
        return
    if not _holds_number(x, 0, set()) and not _empty_structure(x, 0):
        what = f"a {type(x).__name__}" if x is not None else "None"
        if isinstance(x, np.ndarray):
            what = f"an array of dtype {x.dtype}"
        raise NotDifferentiableArgumentError(
            f"cannot differentiate with respect to `{name}`: it is {what}, which holds "
            "no int, float or complex value. Name only numeric arguments in wrt= "
            "(argnums=); pass the others as they are")


def _holds_number(x, depth, seen):
    if isinstance(x, bool) or x is None or isinstance(x, (str, bytes)):
        return False
    if isinstance(x, (int, float, complex, np.number)):
        return True
    dtype = getattr(x, "dtype", None)
    if dtype is not None and hasattr(x, "shape"):   # an array of any library
        return getattr(dtype, "kind", "f") in _NUMERIC_KINDS
    if depth >= _MAX_DEPTH or id(x) in seen:
        return False
    seen.add(id(x))
    if isinstance(x, dict):
        items = x.values()
    elif isinstance(x, (list, tuple, set, frozenset)):
        items = x
    elif isinstance(x, (types.MethodType, types.BuiltinMethodType)) \
            and not isinstance(x.__self__, types.ModuleType):
        items = [x.__self__]   # a bound method: its object's derivative (x.sum's is x's)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        items = [getattr(x, f.name) for f in dataclasses.fields(x)]
    else:
        items = getattr(x, "__dict__", {}).values()
    return any(_holds_number(item, depth + 1, seen) for item in items)


def _empty_structure(x, depth):
    """Is ``x`` a tuple, list or dict with no items but such containers?"""
    if type(x) not in (tuple, list, dict) or depth >= _MAX_DEPTH:
        return False
    items = x.values() if type(x) is dict else x
    return all(_empty_structure(item, depth + 1) for item in items)


def check_shaped_like(given, like, what, of="the value it belongs to"):
    """Raise ``GradientError`` unless ``given`` (a cotangent, tangent or output gradient)
    has the structure of ``like`` and each of its arrays ``like``'s shape there: a
    cotangent of the wrong shape would broadcast into a wrong derivative. ``None`` in
    ``given`` stands for zeros."""
    problem = _shape_mismatch(given, like, 0)
    if problem is not None:
        raise GradientError(f"{what} {problem}; it must be shaped like {of}")


def _shape_mismatch(given, like, depth):
    if given is None or depth > _MAX_DEPTH:
        return None
    if isinstance(like, tuple) and hasattr(like, "_fields") and type(given) is dict:
        # a NamedTuple's sparse tangent or cotangent: its fields by name or position
        fields = dict(zip(like._fields, like)) | dict(enumerate(like))
        if set(given) - set(fields):
            return f"is {_described(given)} where fields of {type(like).__name__} are expected"
        problems = (_shape_mismatch(g, fields[k], depth + 1) for k, g in given.items())
        return next((p for p in problems if p is not None), None)
    if isinstance(like, (list, tuple)) and not hasattr(like, "shape"):
        if hasattr(given, "shape") and len(given.shape):   # an array for a list of numbers
            found, expected = tuple(given.shape), _shape(like)
            return None if found == expected else f"is shaped {found}, not {expected}"
        if not isinstance(given, (list, tuple)) or len(given) != len(like):
            return f"is {_described(given)} where a sequence of {len(like)} items is expected"
        problems = (_shape_mismatch(g, v, depth + 1) for g, v in zip(given, like))
        return next((p for p in problems if p is not None), None)
    if isinstance(like, dict):
        if not isinstance(given, dict) or set(given) - set(like):
            return f"is {_described(given)} where a dict with keys {sorted(like, key=str)} " \
                "is expected"
        problems = (_shape_mismatch(g, like[k], depth + 1) for k, g in given.items())
        return next((p for p in problems if p is not None), None)
    if dataclasses.is_dataclass(like) and not isinstance(like, type):
        if type(given) is not type(like):   # (a sparse dict of fields, say)
            return None
        problems = (_shape_mismatch(getattr(given, f.name), getattr(like, f.name), depth + 1)
                    for f in dataclasses.fields(like))
        return next((p for p in problems if p is not None), None)
    expected = _shape(like)
    if expected is None:   # an object of another kind: its cotangent's own business
        return None
    found = _shape(given)
    if found != expected:
        return f"is shaped {found}, not {expected}"
    return None


def _shape(value):
    if isinstance(value, (type, np.dtype)):   # what selects a computation (x.astype(np.float64)):
        return None   # no number, whatever its ``shape`` (a class's: a descriptor)
    shape = getattr(value, "shape", None)
    if shape is not None:
        return tuple(shape)
    if isinstance(value, (int, float, complex, np.number, bool)):
        return ()
    if isinstance(value, (list, tuple)):
        try:
            return np.shape(value)
        except ValueError:   # items of several shapes
            return None
    return None


def _described(value):
    if isinstance(value, (list, tuple, dict)):
        return f"a {type(value).__name__} of {len(value)} items"
    return f"a {type(value).__name__} shaped {_shape(value)}"
