"""Batched reverse mode (``runtime.batched_reverse``): a reshape of a block of
cotangents, and the backward sweeps of calls (a callee's generated backward; a call
through a value, ``x.ravel()`` of a value whose type is known only as it runs) for all
the rows at once."""

import numpy as np

from srcgrad.runtime.batched import UnbatchedCall
from srcgrad.runtime.batched_reverse import map_rows
from srcgrad.runtime.dynamic import _compiler, dynamic_backward

__all__ = ["batch_reshape_rows", "batch_dynamic_backward", "batch_callee_backward"]

_NDARRAY = np.ndarray


def batch_reshape_rows(g, shape):
    """``np.reshape(g, shape)`` of every row (C order: the rows' axis stays last)."""
    if type(g) is not _NDARRAY or g.ndim == 0:
        return map_rows(lambda row: np.reshape(row, shape), g)
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    if not isinstance(shape, tuple) or not all(isinstance(n, (int, np.integer))
                                               for n in shape):
        return map_rows(lambda row: np.reshape(row, shape), g)
    return g.reshape(shape + g.shape[-1:])


def batch_dynamic_backward(saved, g):
    """``dynamic_backward`` of every row: the callee's generated backward rewritten for a
    block of cotangents (``compiler.batched_backward``), run once on its saved values;
    once per row where it has no batched form. A slot without a cotangent gets zeros
    over the rows, as the rows stacked give."""
    unit, inner, slots, count = saved
    backward = _compiler().batched_backward(unit.backward)
    if backward is None or type(g) is not _NDARRAY or g.ndim == 0:
        return map_rows(lambda row: dynamic_backward(saved, row), g)
    try:
        grads = backward(inner, g)
    except UnbatchedCall:
        return map_rows(lambda row: dynamic_backward(saved, row), g)
    rows = g.shape[-1]
    out = [np.zeros(rows)] * count
    for slot, grad in zip(slots, grads):
        if type(slot) is int:
            out[slot] = np.zeros(rows) if grad is None else grad
    return tuple(out)


def batch_callee_backward(fn, saved, g):
    """``fn(saved, g)`` of every row, ``fn`` a callee's backward as a batched sweep
    links it: where ``fn`` is a backward srcgrad generated, its batched form, once;
    anything else (or a step with no batched form as it runs) once per row."""
    compiler = _compiler()
    if getattr(fn, "role", None) == "backward" and compiler.is_generated(fn) \
            and type(g) is _NDARRAY and g.ndim:
        backward = compiler.batched_backward(fn)
        if backward is not None:
            try:
                return backward(saved, g)
            except UnbatchedCall:
                pass
    return map_rows(lambda row: fn(saved, row), g)
