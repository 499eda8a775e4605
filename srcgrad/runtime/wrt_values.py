"""What a derivative is taken with respect to must hold a number: a ``wrt`` argument
that is a string, None, a bool, or a structure without any number has no derivative
(JAX and autograd refuse it too), and its gradient is not an empty dict or a zero.

Ints count as numbers: srcgrad differentiates an int argument as the float it
converts to (``sg.grad(lambda x, n: x ** n, 1)(2.0, 3)`` is ``8 log 2``)."""

import dataclasses

import numpy as np

from srcgrad.errors import NotDifferentiableArgumentError
from srcgrad.runtime.core import zeros_like, zeros_like_structure

__all__ = ["check_wrt", "wrt_zeros"]

_NUMERIC_KINDS = frozenset("iufc")
_MAX_DEPTH = 32


def wrt_zeros(x, name, structure=False):
    """The gradient of a ``wrt`` argument that the output does not depend on: zeros
    (in ``x``'s structure when ``structure``), once ``x`` is known to hold a number."""
    check_wrt(x, name)
    return zeros_like_structure(x) if structure else zeros_like(x)


def check_wrt(x, name):
    """Raise ``NotDifferentiableArgumentError`` naming ``name`` unless ``x`` holds a
    number (an int, float or complex, a numeric array, or a container holding one)."""
    if type(x) is np.ndarray and x.dtype.kind in _NUMERIC_KINDS or type(x) is float:
        return
    if not _holds_number(x, 0, set()):
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
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        items = [getattr(x, f.name) for f in dataclasses.fields(x)]
    else:
        items = getattr(x, "__dict__", {}).values()
    return any(_holds_number(item, depth + 1, seen) for item in items)
