"""Cotangent accumulators written in place (``optimize.accumulators`` proves when).

``dW = _sg.add_cotangents(dW, c)`` in a loop builds a new array per iteration; when the
compiler has proven that nothing but those additions reads ``dW`` before it is returned,
the sum can go into the array ``dW`` already holds::

    dW = _sg.zeros_like(W)                     dW = _sg.zeros_like(W)
    for t in reversed(range(n)):               for t in reversed(range(n)):
        dW = _sg.add_cotangents(dW, c)             dW = _sg.add_into(dW, c)
"""

from __future__ import annotations

import numpy as np

from srcgrad.runtime.core import _NDARRAY, add_cotangents

__all__ = ["add_into"]


def add_into(total, g):
    """``add_cotangents(total, g)``, written into ``total`` when both are ndarrays of one
    shape and dtype and ``total`` is writable. The caller owns ``total`` (no other name
    holds it); what this returns is owned again: a sum that is ``g`` itself (``total``
    was a zero not built) is copied."""
    if type(total) is _NDARRAY and type(g) is _NDARRAY and total.shape == g.shape \
            and total.dtype is g.dtype and total.flags.writeable:
        np.add(total, g, out=total)
        return total
    out = add_cotangents(total, g)
    if out is g and type(g) is _NDARRAY:
        return g.copy()
    return out
