"""A derivative in the dtype of the value it belongs to.

A float32 input combined with a float64 constant computes in float64 (NumPy's
promotion), but its gradient is returned as float32, like the input (as JAX and
autograd do): ``return _sg.in_dtype_of(dx, x)``. Forward mode does the same for the
output's tangent.
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime import foreign
from srcgrad.runtime.core import is_duck_array, zeros_like, zeros_like_structure
from srcgrad.runtime.namespaces import foreign_namespace
from srcgrad.runtime.shape_adjoints import array_adjoint
from srcgrad.runtime.transposes import array_adjoint_transpose

_FLOAT64 = np.dtype(np.float64)
_NDARRAY = np.ndarray


def in_dtype_of(derivative, value):
    """A derivative of ``value`` (a gradient, or the tangent of a value given to a
    derivative rule) in ``value``'s dtype: see ``_in_dtype``."""
    return _in_dtype(derivative, value, True)


def tangent_in_dtype_of(tangent, value):
    """A function's output tangent in its value's dtype, as ``in_dtype_of`` but a
    complex tangent of a real value stays complex: only a wrong rule gives one, and a
    check must see it rather than the real part."""
    return _in_dtype(tangent, value, False)


def _in_dtype(derivative, value, project):
    """``derivative`` cast to ``value``'s float (or complex) dtype when both are of that
    kind and the dtypes differ (a Python float's is float64); anything else is returned
    as it is. The kind follows the value's too: a real value's derivative is real (the
    real part of a complex one, which pairs with a real direction as Re(conj(g) dx)
    does; with ``project``) and a complex value's is complex (autograd's convention)."""
    kind = type(value)
    if kind is _NDARRAY:
        dtype = value.dtype
        if dtype is _FLOAT64:   # the usual case: nothing to do unless it is complex
            return derivative.real if project and _is_complex(derivative) else derivative
    elif kind is float:   # (NumPy computes float32 * float in float32)
        if _is_complex(derivative):
            if not project:
                return derivative
            derivative = derivative.real
        if type(derivative) is float or type(derivative) is np.float64 or \
                not isinstance(derivative, np.floating):
            return derivative
        return np.float64(derivative)
    elif kind is complex:
        if isinstance(derivative, (float, np.floating)):
            return complex(derivative) if type(derivative) is float \
                else np.complex128(derivative)
        return derivative
    else:
        dtype = getattr(value, "dtype", None)
        if dtype is None:
            return _items_in_dtype(derivative, value, project)
        if (xp := foreign_namespace(value)) is not None:
            return foreign.xp_in_dtype_of(xp, derivative, value)
    own = getattr(derivative, "dtype", None)
    if not isinstance(dtype, np.dtype) or dtype.kind not in "fc":   # (a type's dtype)
        return derivative
    if own is None:   # a Python number
        if dtype.kind == "c" and isinstance(derivative, float):
            return dtype.type(derivative)
        return derivative.real if project and dtype.kind == "f" and \
            isinstance(derivative, complex) else derivative
    if own.kind not in "fc":
        return derivative
    if dtype.kind == "f" and own.kind == "c":
        if not project:
            return derivative
        derivative = derivative.real
        own = derivative.dtype
    if own == dtype:
        return derivative
    if isinstance(derivative, _NDARRAY) or is_duck_array(derivative):   # (dask: lazily)
        return derivative.astype(dtype)
    return dtype.type(derivative)


def _is_complex(x):
    return isinstance(x, complex) or getattr(getattr(x, "dtype", None), "kind", None) == "c"


def _items_in_dtype(derivative, value, project):
    """A container's cotangent (restructured like it), item by item; a list or tuple
    argument gets a list or tuple even where a rule gave it an array."""
    if type(value) is dict and type(derivative) is dict:   # (a sparse one: zeros filled in)
        return {key: _in_dtype(derivative[key], item, project)
                if derivative.get(key) is not None
                else zeros_like_structure(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)) and type(derivative) is _NDARRAY and \
            derivative.ndim and len(derivative) == len(value):
        derivative = list(derivative)   # a rule's array cotangent of a list (np.append(xs, v))
    if isinstance(value, (list, tuple)) and isinstance(derivative, (list, tuple)) and \
            len(derivative) == len(value):
        items = [_in_dtype(d, v, project) for d, v in zip(derivative, value)]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return derivative


def truncates(dtype):
    """Does casting a float to ``dtype`` (an integer or boolean type) drop its fraction,
    leaving a value that is constant between jumps (derivative zero)?"""
    return dtype is not None and np.dtype(dtype).kind in "biu"


def cast_adjoint(g, a, dtype):
    """The cotangent of ``a`` in ``np.asarray(a, dtype)`` / ``a.astype(dtype)``: zeros
    for an integer or boolean ``dtype``, else ``g`` shaped like ``a``."""
    if (xp := foreign_namespace(a)) is not None:
        return foreign.xp_cast_adjoint(xp, g, a, dtype)

    return zeros_like(a) if truncates(dtype) else array_adjoint(g, a)


def cast_adjoint_transpose(g, v, a, dtype):
    """Transpose of ``cast_adjoint`` in ``v`` (for derivatives of generated gradients)."""

    return zeros_like(v) if truncates(dtype) else array_adjoint_transpose(g, v, a)


def cast_tangent(a_dot, dtype, copy):
    """The tangent of ``np.array(a, dtype, copy=copy)`` (``np.asarray``: ``copy=None``):
    zeros for an integer or boolean ``dtype`` (the cast truncates), else the tangent
    cast and copied likewise (a copied array's tangent must not share the argument's)."""
    if truncates(dtype):
        return np.zeros(np.shape(a_dot))
    if is_duck_array(a_dot):   # a dask array stays lazy
        return a_dot if dtype is None else a_dot.astype(dtype)
    return np.array(a_dot, dtype, copy=copy)


def stored_derivative(derivative, x):
    """The derivative of the value written by ``x[i] = v``, as ``x`` stores it: zeros
    when ``x`` is an integer or boolean array (the write truncates ``v``), else
    ``derivative`` itself."""
    if type(x) is _NDARRAY and x.dtype.kind in "biu":
        return zeros_like(derivative)
    return derivative
