"""Adjoints of tensor products: ``tensordot``, ``kron``, and ``einsum``'s tangent
(``einsum``'s partials are in ``einsum_partials``, ``multi_dot``'s in ``multi_dot_terms``)."""

from __future__ import annotations

import numpy as np


# -- tensordot ---------------------------------------------------------------------------
def _tensordot_axes(axes, a_ndim, b_ndim):
    if np.ndim(axes) == 0:
        axes = int(axes)
        return list(range(a_ndim - axes, a_ndim)), list(range(axes))
    a_axes, b_axes = axes
    a_axes = [a_axes] if np.ndim(a_axes) == 0 else list(a_axes)
    b_axes = [b_axes] if np.ndim(b_axes) == 0 else list(b_axes)
    return [ax % a_ndim for ax in a_axes], [ax % b_ndim for ax in b_axes]


def tensordot_adjoint_a(g, a, b, axes):
    a_ndim, b_ndim = np.ndim(a), np.ndim(b)
    a_axes, b_axes = _tensordot_axes(axes, a_ndim, b_ndim)
    a_free = [ax for ax in range(a_ndim) if ax not in a_axes]
    b_free = [ax for ax in range(b_ndim) if ax not in b_axes]
    g_b = list(range(len(a_free), np.ndim(g)))
    out = np.tensordot(g, b, (g_b, b_free))       # dims: a_free + b_axes in b's order
    order = a_free + [a_axes[b_axes.index(ax)] for ax in sorted(b_axes)]
    return np.transpose(out, [int(ax) for ax in np.argsort(order)])


def tensordot_adjoint_b(g, a, b, axes):
    a_ndim, b_ndim = np.ndim(a), np.ndim(b)
    a_axes, b_axes = _tensordot_axes(axes, a_ndim, b_ndim)
    a_free = [ax for ax in range(a_ndim) if ax not in a_axes]
    g_a = list(range(len(a_free)))
    out = np.tensordot(a, g, (a_free, g_a))        # dims: a_axes in a's order + b_free
    b_free = [ax for ax in range(b_ndim) if ax not in b_axes]
    order = [b_axes[a_axes.index(ax)] for ax in sorted(a_axes)] + b_free
    return np.transpose(out, [int(ax) for ax in np.argsort(order)])


# -- einsum (its partials: ``einsum_partials``) --------------------------------------------
def einsum_call(subscripts, o1=None, o2=None, o3=None, o4=None, o5=None, o6=None, o7=None):
    """``np.einsum`` of the slots that are given (an unused slot is ``None``): the
    tangent of ``np.einsum``, with ``np.einsum``'s own row."""
    args = [subscripts, o1, o2, o3, o4, o5, o6, o7]
    return np.einsum(*[a for a in args if a is not None])


# -- kron ------------------------------------------------------------------
def _kron_blocks(g, a, b):
    a2, b2 = np.atleast_2d(a), np.atleast_2d(b)
    ndim = max(a2.ndim, b2.ndim)
    a_shape = (1,) * (ndim - a2.ndim) + a2.shape
    b_shape = (1,) * (ndim - b2.ndim) + b2.shape
    interleaved = [n for pair in zip(a_shape, b_shape) for n in pair]
    blocks = np.reshape(g, interleaved)   # axes: a0, b0, a1, b1, ...
    return blocks, np.reshape(a, a_shape), np.reshape(b, b_shape), ndim


def kron_adjoint_a(g, a, b):
    blocks, _, b_full, ndim = _kron_blocks(g, a, b)
    b_axes = list(range(1, 2 * ndim, 2))
    out = np.tensordot(blocks, b_full, (b_axes, list(range(ndim))))
    return np.reshape(out, np.shape(a))


def kron_adjoint_b(g, a, b):
    blocks, a_full, _, ndim = _kron_blocks(g, a, b)
    a_axes = list(range(0, 2 * ndim, 2))
    out = np.tensordot(a_full, blocks, (list(range(ndim)), a_axes))
    return np.reshape(out, np.shape(b))
