"""Values read as arrays: dtypes, other libraries' arrays (dask) kept lazy, shapes saved in
place of arrays, and a cotangent summed back to the shape of what was broadcast.

    dx = _sg.unbroadcast(g * y, x)   # g of shape (3, 4), x of shape (4,): g * y summed over axis 0
"""

from __future__ import annotations

import math

import numpy as np

from srcgrad.runtime import foreign
from srcgrad.runtime.namespaces import foreign_namespace

_FLOAT = float
_NDARRAY = np.ndarray
# NumPy's own function (its row in the rule table applies): what normalize.sequence_operands
# writes around a list given to an elementwise NumPy function.
asarray = np.asarray


def dtype_of(a):
    """``a``'s dtype, read without converting it: an array-like (a dask array, say) keeps
    its laziness; Python scalars and lists go through ``np.result_type``/``np.asarray``."""
    dtype = getattr(a, "dtype", None)
    if isinstance(dtype, np.dtype):
        return dtype
    if isinstance(a, (list, tuple)):
        return np.asarray(a).dtype
    return np.result_type(a)


def _float_dtype(a):
    dtype = dtype_of(a)
    return dtype if dtype.kind in "fc" else np.float64


def is_duck_array(x):
    """Is ``x`` another library's array that NumPy functions dispatch to (a dask array):
    not an ndarray, with a shape, a dtype and ``__array_function__``? Helpers keep such a
    value as it is (lazy) and work on it through NumPy functions."""
    kind = type(x)
    return (kind is not _NDARRAY and hasattr(kind, "__array_function__")
            and hasattr(x, "shape") and hasattr(x, "dtype")
            and not isinstance(x, (np.ndarray, np.generic)))


def as_array(x, dtype=None):
    """``x`` as an array without computing it: an ndarray or another library's array (a
    dask array stays lazy) as it is, cast to ``dtype`` when given; a number or a list
    through ``np.asarray``. Before/after: ``np.asarray(x, dtype=float)`` ->
    ``as_array(x, float)``."""
    if type(x) is _NDARRAY or is_duck_array(x) or isinstance(x, np.ndarray):
        if dtype is None or x.dtype == dtype:
            return x
        return x.astype(dtype)
    return np.asarray(x, dtype=dtype)


_SCALAR_TYPES = (float, int, np.float64)


class SavedShape:
    """What ``unbroadcast``, ``sum_adjoint``, ``mean_adjoint`` and ``zeros_like`` read of
    an array: its shape and dtype. Saved in a loop in place of an array the backward sweep
    reads only so, so that the array itself can be freed (``optimize.shape_saves``)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype


# Arrays of at most this many elements are saved as they are: a ``SavedShape`` would
# take as much memory and cost more to make than the array it lets go.
_SMALL = 64


def shape_of(x):
    """``x`` as a shape to save: a ``SavedShape`` for an array, else ``x`` itself (a small
    array too: the helpers read an array and its ``SavedShape`` alike)."""
    return SavedShape(x.shape, x.dtype) if type(x) is _NDARRAY and x.size > _SMALL else x


def unbroadcast(g, x):
    """Sum ``g`` over the axes that broadcasting added to or stretched in ``x`` (an
    array, a scalar or a ``SavedShape``) and keep the real part of a complex ``g`` for a
    real ``x``."""
    kind = type(x)
    if kind is _NDARRAY or kind is SavedShape:
        if type(g) is _NDARRAY and g.shape == x.shape and g.dtype is x.dtype:
            return g
        shape, real = x.shape, x.dtype.kind != "c"
    elif kind is _FLOAT and type(g) is _NDARRAY and g.dtype.kind == "f":
        # A Python float's cotangent: g summed over all its axes, as ``sum_to_shape``
        # sums them (one reduction), without reading the float's shape and dtype.
        return (g.sum() if g.ndim == 1 else g.sum(axis=tuple(range(g.ndim))))[()]
    elif kind is list or kind is tuple:
        shape, real = _sequence_operand_shape(g, x), dtype_of(x).kind != "c"
    elif (xp := foreign_namespace(g, x)) is not None:
        return foreign.xp_unbroadcast(xp, g, x)
    elif type(g) is not _NDARRAY and (type(g) in _SCALAR_TYPES or not is_duck_array(g)):
        return match_real(g, x)
    else:
        shape, real = np.shape(x), dtype_of(x).kind != "c"
    if not hasattr(g, "shape"):   # a number; arrays of other libraries (dask) stay lazy
        g = np.asarray(g)
    if g.dtype.kind == "c" and real:
        g = g.real
    g = sum_to_shape(g, shape)
    if kind is not _NDARRAY and kind is not SavedShape:
        return g[()] if g.ndim == 0 else g
    return g


_COMPLEX_SCALARS = (complex, np.complexfloating)


def match_real(g, x):
    """``g``, the cotangent of ``x``, with its imaginary part dropped when ``x`` is real:
    a real input's gradient is real (autograd's convention). A rule with several operands
    (``np.dot(a, z)``, ``np.kron(a, z)``) gives a real ``a`` the complex ``g @ z.T``;
    the real part is the derivative of the real-valued loss along ``a``'s real
    directions. Lists, dicts and other containers are returned as they are."""
    kind = type(g)
    if kind is _NDARRAY:
        if g.dtype.kind != "c":
            return g
        if type(x) is _NDARRAY or type(x) is SavedShape:
            return g if x.dtype.kind == "c" else g.real
    elif not isinstance(g, _COMPLEX_SCALARS):
        return g
    if isinstance(x, (float, int, np.floating, np.integer, np.bool_)) or (
            isinstance(x, (np.ndarray, SavedShape)) and x.dtype.kind != "c"):
        return g.real
    return g


def _sequence_operand_shape(g, x):
    """The shape of the list or tuple operand ``x`` of an arithmetic rule, after checking
    the result was an array NumPy broadcast it to: a result that is a sequence again, or
    of a shape ``x`` does not broadcast to, was a concatenation or a repetition (``a + b``,
    ``a * 2`` on lists), which the arithmetic rules do not describe."""
    shape = np.shape(x)
    if type(g) is not list and type(g) is not tuple:
        try:
            if np.broadcast_shapes(shape, np.shape(g)) == np.shape(g):
                return shape
        except ValueError:
            pass
    from srcgrad.errors import TransformError

    raise TransformError(
        f"srcgrad differentiates + and * as arithmetic, but an operand here is a "
        f"{type(x).__name__} and the result is not the array NumPy's arithmetic makes: "
        "concatenation or repetition of Python sequences is not differentiated. Convert "
        "with np.asarray(...) first, or use np.concatenate / np.tile")


# (length, dtype) -> a row of ones, the left factor of a summing matmul
_ONES: dict[tuple[int, np.dtype], np.ndarray] = {}


def sum_to_shape(g, shape):
    """``g`` summed over the axes that broadcasting to ``g.shape`` added to or stretched
    in ``shape``, in one reduction. A block of axes with a short inner remainder (``(25,
    1000, 10)`` to ``(25, 1, 10)``) is summed as a product with a row of ones: NumPy's
    reduction walks it ten elements at a time, a BLAS product in one pass (20x faster)."""
    lead = g.ndim - len(shape)
    if lead < 0:
        g = g.reshape((1,) * -lead + g.shape)
        lead = 0
    gshape = g.shape
    axes = list(range(lead))
    for axis, size in enumerate(shape):
        if size == 1 and gshape[lead + axis] != 1:
            axes.append(lead + axis)
    if not axes:
        return g if lead == 0 else g.reshape(shape)
    first, stop = axes[0], axes[-1] + 1
    if stop - first == len(axes) and type(g) is _NDARRAY and g.dtype.kind in "fc" \
            and g.size >= 256 and g.flags.c_contiguous:
        post = math.prod(gshape[stop:])
        if post > 1:
            m = math.prod(gshape[first:stop])
            key = (m, g.dtype)
            ones = _ONES.get(key)
            if ones is None:
                if len(_ONES) > 64:
                    _ONES.clear()
                ones = _ONES[key] = np.ones((1, m), dtype=g.dtype)
            pre = math.prod(gshape[:first])
            if pre == 1:
                return np.matmul(ones, g.reshape(m, post)).reshape(shape)
            return np.matmul(ones, g.reshape(pre, m, post)).reshape(shape)
    return g.sum(axis=tuple(axes)).reshape(shape)
