"""Adjoints of convolutions and of the window views convnets written in NumPy use.

A convolution ``out = conv(a, b, mode)`` is the ``mode`` part of the full one: its
cotangent is placed back into the full shape (zeros elsewhere), then convolved with the
other operand flipped, in ``'valid'`` mode (autograd's convention: no conjugation)::

    da = conv(pad(g), flip(b), 'valid')       db = conv(pad(g), flip(a), 'valid')

Both helpers are bilinear rows (``rules.runtime_rules``): ``convolve_adjoint``'s transpose
in ``g`` is ``convolve_part`` (the mode's part of a full convolution), and each one's
transpose in the other operand is ``convolve_adjoint`` again.

``sliding_window_view`` is linear: its transpose adds each window's cotangent back onto
the elements it viewed (one strided add per position inside the window). ``as_strided``
of a C-contiguous array is a gather of its elements at computed positions: its transpose
scatters-adds them back.
"""

from __future__ import annotations

import numpy as np

__all__ = ["convolve_adjoint", "convolve_part", "signal_convolve", "sliding_window_adjoint",
           "sliding_window_tangent", "strided_positions", "strided_adjoint", "strided_tangent"]


def signal_convolve(in1, in2, mode="full", method="auto"):
    """``scipy.signal.convolve`` (generated code reaches SciPy through this name)."""
    import scipy.signal

    return scipy.signal.convolve(in1, in2, mode=mode, method=method)


def convolve_adjoint(g, other, like, numpy_1d=False):
    """The cotangent of the operand shaped like ``like`` in ``conv(like, other, mode)``
    (or ``conv(other, like, mode)``: a convolution commutes) whose output cotangent is
    ``g`` (its shape tells the mode's part of the full output): ``g`` placed in the full
    shape, convolved with ``other`` flipped, in ``'valid'`` mode. Bilinear in ``g`` and
    ``other``; ``like`` gives only a shape. ``numpy_1d``: ``np.convolve``."""
    other, g = np.asarray(other), np.asarray(g)
    full_shape = tuple(m + n - 1 for m, n in zip(np.shape(like), other.shape))
    start = tuple((f - o) // 2 for f, o in zip(full_shape, g.shape))
    padded = np.zeros(full_shape, dtype=np.result_type(g, other))
    padded[tuple(slice(s, s + o) for s, o in zip(start, g.shape))] = g
    if numpy_1d:
        return np.convolve(padded, np.flip(other), "valid")
    return signal_convolve(padded, np.flip(other), "valid")


def convolve_part(h, other, like, numpy_1d=False):
    """``conv(h, other, 'full')``, the part of it shaped like ``like`` (centered, as
    ``'same'`` and ``'valid'`` take it): the transpose of ``convolve_adjoint`` in ``g``."""
    full = np.convolve(h, other) if numpy_1d else signal_convolve(h, other)
    start = tuple((f - o) // 2 for f, o in zip(np.shape(full), np.shape(like)))
    return full[tuple(slice(s, s + o) for s, o in zip(start, np.shape(like)))]


def _window_axes(x, window_shape, axis):
    shape = (window_shape,) if np.ndim(window_shape) == 0 else tuple(window_shape)
    ndim = np.ndim(x)
    if axis is None:
        axes = tuple(range(ndim))
    else:
        axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
        axes = tuple(int(ax) % ndim for ax in axes)
    return tuple(int(w) for w in shape), axes


def sliding_window_adjoint(g, x, window_shape, axis=None):
    """Transpose of ``sliding_window_view(x, window_shape, axis)``: for each position
    ``w`` inside the window, ``g[..., w]`` is added to the elements the windows viewed
    there (an axis listed twice shifts by both positions)."""
    shape, axes = _window_axes(x, window_shape, axis)
    ndim = np.ndim(x)
    out = np.zeros(np.shape(x), dtype=np.result_type(g, 0.0))
    starts = np.shape(g)[:ndim]   # windows along each axis
    for position in np.ndindex(*shape):
        offset = [0] * ndim
        for ax, k in zip(axes, position):
            offset[ax] += k
        index = tuple(slice(o, o + n) for o, n in zip(offset, starts))
        out[index] += g[(Ellipsis,) + position]
    return out


def sliding_window_tangent(x_dot, x, window_shape, axis=None):
    """``sliding_window_view`` of the tangent (a copy: a view of a tangent must not be
    written through)."""
    view = np.lib.stride_tricks.sliding_window_view(
        np.broadcast_to(x_dot, np.shape(x)), window_shape, axis=axis)
    return np.array(view)


def strided_positions(x, shape, strides):
    """The position in ``x.ravel()`` of each element of ``as_strided(x, shape, strides)``
    (``x`` C-contiguous: its strides in bytes are positions times its itemsize)."""
    x = np.asarray(x)
    if not x.flags.c_contiguous:
        from srcgrad.errors import TransformError

        raise TransformError(
            "srcgrad differentiates np.lib.stride_tricks.as_strided of a C-contiguous array "
            "only (the strides address its memory); pass np.ascontiguousarray(x)")
    shape = x.shape if shape is None else tuple(shape)
    strides = x.strides if strides is None else tuple(strides)
    positions = np.arange(x.size, dtype=np.intp).reshape(x.shape)
    if any(s % x.itemsize for s in strides):
        raise ValueError("as_strided strides that are not whole elements")
    element_strides = tuple(int(s // x.itemsize * positions.itemsize) for s in strides)
    return np.lib.stride_tricks.as_strided(positions, shape, element_strides)


def strided_adjoint(g, x, shape, strides):
    """Transpose of ``as_strided``: each element's cotangent added back where it was read."""
    out = np.zeros(np.size(x), dtype=np.result_type(g, 0.0))
    np.add.at(out, np.ravel(strided_positions(x, shape, strides)), np.ravel(g))
    return out.reshape(np.shape(x))


def strided_tangent(x_dot, x, shape, strides):
    """``as_strided`` of the tangent, as a gather (a copy)."""
    flat = np.ravel(np.broadcast_to(x_dot, np.shape(x)))
    return flat[strided_positions(x, shape, strides)]
