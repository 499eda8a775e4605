"""Transposes of the helpers generated code uses to move cotangents and tangents between
a call's arguments and containers (``*xs`` at a call, ``**kwargs``):
each helper is linear in the value it moves, so reverse mode over generated code needs
that linear map's transpose, written here in NumPy and the helpers that are rows too.

Before (a generated gradient)::          After (reverse mode over it)::

    dxs = _sg.unpacked_part(g, xs, 1, 0)     dg = _sg.unpacked_part_transpose(ddxs, g, 1, 0)
"""

from __future__ import annotations

from srcgrad.runtime.core import zeros_like

__all__ = ["unpacked_part_transpose", "item_tangents_transpose", "dropped_nones",
           "pieces_unbroadcast"]


def unpacked_part_transpose(part, g, start, after):
    """Transpose of ``unpacked_part(g, xs, start, after)``: the cotangent ``part`` of
    the unpacked items placed back at positions ``start .. len(g) - after`` of a
    sequence shaped like ``g``, zeros elsewhere."""
    out = [zeros_like(item) for item in g]
    for i, item in enumerate(part):
        out[start + i] = item
    return tuple(out) if isinstance(g, tuple) else out


def item_tangents_transpose(g, xs_dot):
    """Transpose of ``item_tangents(xs_dot, xs)``: the items' cotangents as one list
    (zeros for an item whose tangent was None)."""
    return [zeros_like(x) if gi is None else gi for gi, x in zip(g, xs_dot)]


def dropped_nones(g):
    """A sparse dict cotangent without its ``None`` entries (keywords that carried no
    derivative)."""
    return {key: value for key, value in g.items() if value is not None}


def pieces_unbroadcast(g, pieces):
    """Transpose of ``pieces_like(pieces, arrays)``: each item's cotangent summed back to
    the shape of the piece it was broadcast from."""
    from srcgrad.runtime.shapes import unbroadcast

    return [unbroadcast(gi, piece) for gi, piece in zip(g, pieces)]
