"""A sum written into an operand the generated code made and no longer needs.

NumPy reuses a temporary operand's memory for large arrays (``x @ W + b`` adds ``b``
into the product; its "temporary elision"), but only for a value no name holds. The
generated code names every step, so ``optimize.reuse`` passes the dead operand along
as the buffer (``_add = _sg.sum_into(_matmul, _matmul, b1)``) and these helpers write
the result there exactly when NumPy's own elision would: an ndarray of at least 256 KiB
whose dtype and shape the result keeps. Anything else is ``a + b`` / ``a - b``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["sum_into", "difference_into"]

_NDARRAY = np.ndarray
_ELIDE_BYTES = 1 << 18   # NumPy's NPY_MIN_ELIDE_BYTES


def sum_into(buffer, a, b):
    """``a + b``, in ``buffer`` (``a`` or ``b``) when it can hold the result as is."""
    if type(buffer) is _NDARRAY and buffer.nbytes >= _ELIDE_BYTES \
            and _holds(buffer, b if a is buffer else a):
        return np.add(a, b, out=buffer)
    return a + b


def difference_into(buffer, a, b):
    """``a - b``, in ``buffer`` (``a`` or ``b``) when it can hold the result as is."""
    if type(buffer) is _NDARRAY and buffer.nbytes >= _ELIDE_BYTES \
            and _holds(buffer, b if a is buffer else a):
        return np.subtract(a, b, out=buffer)
    return a - b


def _holds(buffer, other):
    """Is ``buffer <op> other`` an array of ``buffer``'s own dtype and shape, ``buffer``
    writable? ``other``: an ndarray of the same dtype that broadcasts to ``buffer``, or
    a Python float or int with a float or complex ``buffer`` (NumPy keeps the array's
    dtype for those)."""
    if not buffer.flags.writeable:
        return False
    kind = type(other)
    if kind is float or kind is int:
        return buffer.dtype.kind in "fc"
    if kind is not _NDARRAY or other.dtype != buffer.dtype or other.ndim > buffer.ndim:
        return False
    shape = buffer.shape
    offset = len(shape) - other.ndim
    for axis, size in enumerate(other.shape):
        if size != 1 and size != shape[offset + axis]:
            return False
    return True
