"""Checks generated code makes on entry, where an assumption cannot be proven from source.

``check_array_types(x, w)``: the rules read ``x * w`` as NumPy's elementwise product. An
ndarray subclass whose operators mean something else (``np.matrix``: ``*`` is a matrix
product, ``**`` a matrix power; masked arrays) would get the elementwise derivative of
a different computation, so it is refused, naming its type::

    def loss_grad(x, w):
        _sg.check_array_types(x, w)
        ...
"""

from __future__ import annotations

import functools

import numpy as np

from srcgrad.errors import TransformError

__all__ = ["check_array_types"]

_NDARRAY = np.ndarray
_OPERATORS = ("__mul__", "__rmul__", "__imul__", "__pow__", "__rpow__", "__ipow__",
              "__matmul__", "__rmatmul__", "__truediv__", "__rtruediv__", "__add__",
              "__radd__", "__sub__", "__rsub__", "__neg__", "__getitem__")


def check_array_types(*args):
    """Raise a TransformError if an argument, or an item of a list, tuple or dict
    argument (a pytree of parameters), is an ndarray of another operator meaning."""
    for arg in args:
        kind = type(arg)
        if kind is _NDARRAY or kind is float:
            continue
        if kind is list or kind is tuple:
            check_array_types(*arg)
        elif kind is dict:
            check_array_types(*arg.values())
        elif isinstance(arg, _NDARRAY) and _redefines_operators(kind):
            raise TransformError(
                f"srcgrad does not differentiate {kind.__module__}.{kind.__qualname__} "
                "arguments: their operators do not mean what NumPy's do (for np.matrix, "
                "`*` is a matrix product), and srcgrad's rules are NumPy's. Pass "
                "np.asarray(value) and write matrix products with `@`")


@functools.cache
def _redefines_operators(kind):
    return any(getattr(kind, name, None) is not getattr(_NDARRAY, name) for name in _OPERATORS)
