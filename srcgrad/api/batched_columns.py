"""A Jacobian's forward-mode columns in one sweep per chunk of columns: the batched
forward unit (``compiler.forward_batched``) takes a block of tangent directions (each
tangent with a trailing axis, one Jacobian column each) and returns the output's
tangents for all of them, which fill the Jacobian's blocks a slice at a time.

Only for ``wrt`` arguments that are arrays or numbers (not containers) and an output that
is one array or number; anything else, or a function the batched mode cannot transform,
gets None here and the caller's one-``jvp``-per-column loop.
"""

from __future__ import annotations

import numpy as np

from srcgrad.api import functional as api
from srcgrad.compiler.forward import _check_inputs
from srcgrad.errors import check_output
from srcgrad.runtime.batched import UnbatchedCall

# Tangents of at most about this many elements (the inputs' and the output's size times
# the directions) per sweep: a larger Jacobian runs in chunks of columns.
CHUNK_ELEMENTS = 1 << 21


def batched_columns(f, names, args, inputs):
    """``(value, [(input index, first column, output tangent)...])`` or None."""
    from srcgrad.api.higher import _primals
    from srcgrad.compiler.forward_batched import batched_forward_unit

    if not all(type(x) is np.ndarray for x in inputs) or api.into_varargs(f, names) \
            is not None:
        return None
    fn, bound = api._target(f)
    unit = batched_forward_unit(fn, tuple(names))
    if unit is None:
        return None
    primals = _primals(bound, args)
    total = sum(x.size for x in inputs)
    value, pieces, start = None, [], 0
    while start < total or value is None:
        size = max(1, total - start)
        if value is not None:
            size = min(size, max(1, CHUNK_ELEMENTS // max(1, np.size(value) + _largest(inputs))))
        elif total:
            size = min(size, max(1, CHUNK_ELEMENTS // max(1, 4 * _largest(inputs))))
        tangents = [_directions(x, start - offset, size)
                    for x, offset in zip(inputs, _offsets(inputs))]
        try:
            value, out = _run(unit, primals, tangents)
        except UnbatchedCall:   # a call through a value without a batched form
            return None
        if not _is_array_like(value) or np.shape(out) != np.shape(value) + (size,):
            return None
        pieces.append((start, size, out))
        start += size
        if not total:
            break
    return value, pieces


def _run(unit, primals, tangents):
    """The batched unit's jvp, as ``compiler.forward.call_jvp`` runs a jvp: the
    arguments checked (numbers where differentiated), each tangent's shape through one
    direction (the tangents carry the directions' axis too)."""
    _check_inputs(unit, primals, [t[..., 0] for t in tangents])
    keywords = dict(zip((unit.tangent_names[p] for p in unit.wrt), tangents))
    result = unit.jvp(*primals, **keywords)
    check_output(result[0], unit.fn)
    return result


def fill_blocks(blocks, pieces, inputs):
    """Write each chunk's output tangents into the blocks (output shape + input shape)."""
    offsets = list(_offsets(inputs))
    for start, size, out in pieces:
        for i, x in enumerate(inputs):
            lo, hi = max(start, offsets[i]), min(start + size, offsets[i] + x.size)
            if lo >= hi:
                continue
            block = blocks[0][i]   # (new and contiguous: the reshape is a view)
            flat = block.reshape(block.shape[:block.ndim - x.ndim] + (x.size,))
            flat[..., lo - offsets[i]:hi - offsets[i]] = out[..., lo - start:hi - start]


def _largest(inputs):
    return max((x.size for x in inputs), default=1)


def _offsets(inputs):
    offset = 0
    for x in inputs:
        yield offset
        offset += x.size


def _directions(x, first, size):
    """``x``'s tangent for columns ``first .. first + size`` of the whole Jacobian
    (``first`` relative to ``x``'s own columns): the unit vectors of ``x``'s elements
    that fall among them, zeros elsewhere."""
    dtype = x.dtype if x.dtype.kind == "c" else np.float64
    flat = np.zeros((x.size, size), dtype=dtype)
    lo, hi = max(first, 0), min(first + size, x.size)
    if lo < hi:
        flat[np.arange(lo, hi), np.arange(lo - first, hi - first)] = 1.0
    return flat.reshape(x.shape + (size,))


def _is_array_like(value):
    return isinstance(value, (np.ndarray, np.generic, float, int, complex)) \
        and not isinstance(value, bool)
