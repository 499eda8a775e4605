"""A product summed back to an operand's shape in one pass (``optimize.fused_products``).

The cotangent of a broadcast factor is the product of the incoming cotangent and the
other factor, summed over the broadcast axes: ``_sg.unbroadcast(g * b, x)``. NumPy
builds the whole product first (a mixture model's ``(25, 1000, 10)``) only to reduce it
to ``(25, 1, 10)``; ``np.einsum`` multiplies and sums without that array (3x faster
there)::

    d_Q = _sg.unbroadcast(d_mul * xc, Q)        ->   d_Q = _sg.unbroadcast_product(d_mul, xc, Q)

When nothing is summed, the operands are not two NumPy arrays of one float or complex
dtype, or ``x`` is neither an array, its saved shape nor a float, it is
``unbroadcast(a * b, x)`` itself.
"""

from __future__ import annotations

import string

import numpy as np

from srcgrad.runtime.shapes import _FLOAT, _NDARRAY, SavedShape, unbroadcast

__all__ = ["unbroadcast_product"]

_FUSABLE = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64,
                                           np.complex128))
# (a.shape, b.shape, target shape) -> einsum subscripts, or None: nothing to sum
_PLANS: dict[tuple, str | None] = {}


def unbroadcast_product(a, b, x):
    """``unbroadcast(a * b, x)``: the product summed over the axes broadcasting added to
    or stretched in ``x``, computed without the full product where that saves work."""
    if type(a) is _NDARRAY and type(b) is _NDARRAY:
        kind = type(x)
        if kind is _NDARRAY or kind is SavedShape:
            shape = x.shape
        elif kind is _FLOAT:
            shape = ()
        else:
            return unbroadcast(a * b, x)
        if a.shape == shape or b.shape == shape:   # nothing to sum, as a rule
            product = a * b
            if kind is not _FLOAT and product.shape == shape and product.dtype is x.dtype:
                return product   # (what unbroadcast returns then; for a float, a float)
            return unbroadcast(product, x)
        if a.dtype is b.dtype and a.dtype in _FUSABLE:
            summed = _summed_product(a, b, shape, kind is _FLOAT or x.dtype.kind != "c")
            if summed is not None:
                return summed[()] if kind is _FLOAT else summed
    return unbroadcast(a * b, x)


def _summed_product(a, b, shape, real):
    key = (a.shape, b.shape, shape)
    plan = _PLANS.get(key, False)
    if plan is False:
        plan = _plan(a.shape, b.shape, shape)
        if len(_PLANS) > 256:
            _PLANS.clear()
        _PLANS[key] = plan
    if plan is None:
        return None
    out = np.einsum(plan, a, b)
    if real and a.dtype.kind == "c":
        out = out.real
    return np.reshape(out, shape)


def _plan(a_shape, b_shape, shape):
    """Einsum subscripts that sum ``a * b`` (broadcast) to ``shape``, or None when
    nothing is summed or the shapes are not a broadcast of ``shape`` (then the product
    is built, and NumPy or ``unbroadcast`` reports what is wrong)."""
    try:
        full = np.broadcast_shapes(a_shape, b_shape)
    except ValueError:
        return None
    lead = len(full) - len(shape)
    if lead < 0 or len(full) > len(string.ascii_letters):
        return None
    kept = []
    for axis, size in enumerate(shape):
        if size == full[lead + axis]:
            kept.append(lead + axis)
        elif size != 1:
            return None
    if len(kept) == len(full):
        return None
    letters = string.ascii_letters

    def labels(operand):
        return "".join(letters[len(full) - len(operand) + i] for i in range(len(operand)))

    return f"{labels(a_shape)},{labels(b_shape)}->{''.join(letters[i] for i in kept)}"
