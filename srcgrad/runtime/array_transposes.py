"""Transposes of the array, range and statistics adjoints (``array_adjoints``,
``range_adjoints``, ``stats_adjoints``), for reverse mode over generated code: each
adjoint is linear in its cotangent, and the map below sends a cotangent of its result
back to one shaped like that cotangent (``w``: the adjoint's own cotangent, read for its
shape or structure only). Each one's own transpose is the adjoint it transposes.

Before (a generated gradient)::          After (reverse mode over it)::

    d_ary = _sg.split_adjoint(g, ary, 0)     dg = _sg.split_adjoint_transpose(dd_ary, g, ary, 0)
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.array_adjoints import linspace_tangent


def split_adjoint_transpose(v, w, ary, axis):
    """The pieces of ``v`` that ``split_adjoint`` concatenated (``w``: its pieces)."""
    if np.ndim(ary) == 1:
        axis = 0
    sizes = [np.shape(p)[axis] for p in w]
    return np.split(v, np.cumsum(sizes)[:-1], axis=axis)


def hsplit_adjoint_transpose(v, w, ary):
    return split_adjoint_transpose(v, w, ary, 1)


def append_adjoint_transpose(v, arr, values, axis):
    """``np.append`` of the two cotangents (a tuple; None: zeros) ``append_adjoint``
    split its ``g`` into."""
    first, second = v
    first = np.zeros(np.shape(arr)) if first is None else first
    second = np.zeros(np.shape(values)) if second is None else second
    return np.append(first, second, axis)


def partition_tangent(v, a, kth, axis):
    """Transpose of ``partition_adjoint``: ``v`` gathered in ``np.argpartition``'s order."""
    if axis is None:
        a, v, axis = np.ravel(a), np.ravel(v), -1
    return np.take_along_axis(v, np.argpartition(a, kth, axis=axis), axis=axis)


def linspace_part(v, start, stop, num, endpoint, axis, which):
    """``np.linspace`` of ``v`` at the end ``which`` (0: start, 1: stop), 0 at the other:
    the transpose of ``linspace_adjoint``."""
    zero = np.zeros_like(v)
    ends = (v, zero) if which == 0 else (zero, v)
    return linspace_tangent(*ends, start, stop, num, endpoint, axis)


def diff_tangent(v, a, n, axis, prepend=None, append=None):
    """``np.diff`` of ``v`` with zeros where ``prepend``/``append`` stood (constants):
    the transpose of ``diff_adjoint``."""
    keywords = {}
    for key, value in (("prepend", prepend), ("append", append)):
        if value is not None:
            keywords[key] = np.zeros_like(value, dtype=np.result_type(v, 0.0))
    return np.diff(v, n=n, axis=axis, **keywords)


def imag_adjoint_transpose(v, val):
    """Transpose of ``imag_adjoint`` (``-1j g`` for a complex ``val``): ``Im(v)``, real
    as the cotangent of ``np.imag``'s real result is."""
    return np.imag(v) if np.iscomplexobj(val) else np.zeros(np.shape(v))


def trapezoid_dx_transpose(v, y, axis):
    """Transpose of ``trapezoid_adjoint_dx`` in ``g``: ``v`` times the unit-step integral."""
    return v * np.trapezoid(y, axis=axis)
