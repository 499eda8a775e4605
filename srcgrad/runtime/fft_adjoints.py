"""Adjoints of ``numpy.fft``.

Complex cotangents follow the convention under which every holomorphic rule keeps its
real form: the cotangent ``g`` of a complex ``z`` pairs as ``Re(sum(g * dz))``. The DFT
matrix is symmetric, so the adjoint of ``fft`` is ``fft`` (same ``norm``), and a real
input keeps the real part of its cotangent.
"""

from __future__ import annotations

import numpy as np


def match_complex(target, g):
    """``g`` as a cotangent of ``target``: real for a real ``target``."""
    if np.iscomplexobj(g) and not np.iscomplexobj(target):
        return np.real(g)
    return g


def _fit(g, shape, axes):
    """Truncate or zero-pad ``g`` along ``axes`` to ``shape``'s sizes there."""
    for ax in axes:
        size, have = shape[ax], g.shape[ax]
        if have > size:
            g = np.take(g, np.arange(size), axis=ax)
        elif have < size:
            pad = [(0, 0)] * g.ndim
            pad[ax] = (0, size - have)
            g = np.pad(g, pad)
    return g


def _axes_of(a, s, axes, default):
    ndim = np.ndim(a)
    if axes is None:
        axes = default if default is not None else (
            tuple(range(ndim - len(s), ndim)) if s is not None else tuple(range(ndim)))
    axes = (axes,) if np.ndim(axes) == 0 else tuple(axes)
    return tuple(ax % ndim for ax in axes)


def fft_adjoint(g, a, transform, n=None, axis=-1, norm=None):
    """Adjoint of the 1-D ``fft``/``ifft`` (``transform`` is the function itself)."""
    out = transform(g, axis=axis, norm=norm)
    return match_complex(a, _fit(out, np.shape(a), [axis % np.ndim(a)]))


def fftn_adjoint(g, a, transform, s=None, axes=None, norm=None, default=None):
    axes = _axes_of(a, s, axes, default)
    out = transform(g, axes=axes, norm=norm)
    return match_complex(a, _fit(out, np.shape(a), axes))


def _rfft_full(g, full, axis):
    pad = [(0, 0)] * g.ndim
    pad[axis] = (0, full - g.shape[axis])
    return np.pad(g, pad)


def rfft_adjoint(g, a, n=None, axis=-1, norm=None):
    axis = axis % np.ndim(a)
    full = n if n is not None else np.shape(a)[axis]
    out = np.fft.fft(_rfft_full(g, full, axis), axis=axis, norm=norm)
    return match_complex(a, _fit(out, np.shape(a), [axis]))


def rfftn_adjoint(g, a, s=None, axes=None, norm=None, default=None):
    axes = _axes_of(a, s, axes, default)
    sizes = list(s) if s is not None else [np.shape(a)[ax] for ax in axes]
    out = np.fft.fftn(_rfft_full(g, sizes[-1], axes[-1]), s=sizes, axes=axes, norm=norm)
    return match_complex(a, _fit(out, np.shape(a), axes))


def _half_weights(m, full, axis, ndim):
    """2 for the spectrum entries that stand for a conjugate pair, 1 for DC/Nyquist."""
    weights = np.full(m, 2.0)
    weights[0] = 1.0
    if full % 2 == 0 and m > full // 2:
        weights[full // 2] = 1.0
    shape = [1] * ndim
    shape[axis] = m
    return np.reshape(weights, shape)


def irfft_adjoint(g, a, n=None, axis=-1, norm=None):
    axis = axis % np.ndim(a)
    full = n if n is not None else 2 * (np.shape(a)[axis] - 1)
    m = full // 2 + 1
    out = np.take(np.fft.ifft(g, axis=axis, norm=norm), np.arange(m), axis=axis)
    out = out * _half_weights(m, full, axis, np.ndim(out))
    return match_complex(a, _fit(out, np.shape(a), [axis]))


def irfftn_adjoint(g, a, s=None, axes=None, norm=None, default=None):
    axes = _axes_of(a, s, axes, default)
    last = axes[-1]
    full = s[-1] if s is not None else 2 * (np.shape(a)[last] - 1)
    m = full // 2 + 1
    out = np.fft.ifftn(g, axes=axes, norm=norm)
    out = np.take(out, np.arange(m), axis=last) * _half_weights(m, full, last, np.ndim(g))
    return match_complex(a, _fit(out, np.shape(a), axes))


# -- transposes of the adjoints (reverse mode over generated code) ----------------------
# Each adjoint above is linear in ``g``; the transposes below map a cotangent ``v`` of
# the adjoint's result (shaped like ``a``) back to one shaped like ``g`` (``w``: the
# adjoint's own ``g``, read for its shape only). The DFT matrix is symmetric, so each is
# the forward transform itself, padded or truncated as the primal does.
def fft_adjoint_transpose(v, w, a, transform, n=None, axis=-1, norm=None):
    return transform(v, n=np.shape(w)[axis], axis=axis, norm=norm)


def fftn_adjoint_transpose(v, w, a, transform, s=None, axes=None, norm=None, default=None):
    axes = _axes_of(a, s, axes, default)
    return transform(v, s=[np.shape(w)[ax] for ax in axes], axes=axes, norm=norm)


def rfft_adjoint_transpose(v, w, a, n=None, axis=-1, norm=None):
    axis = axis % np.ndim(a)
    full = n if n is not None else np.shape(a)[axis]
    out = np.fft.fft(v, n=full, axis=axis, norm=norm)
    return np.take(out, np.arange(np.shape(w)[axis]), axis=axis)


def rfftn_adjoint_transpose(v, w, a, s=None, axes=None, norm=None, default=None):
    axes = _axes_of(a, s, axes, default)
    sizes = list(s) if s is not None else [np.shape(a)[ax] for ax in axes]
    out = np.fft.fftn(v, s=sizes, axes=axes, norm=norm)
    return np.take(out, np.arange(np.shape(w)[axes[-1]]), axis=axes[-1])


def irfft_adjoint_transpose(v, w, a, n=None, axis=-1, norm=None):
    axis = axis % np.ndim(a)
    full = np.shape(w)[axis]
    m = full // 2 + 1
    half = _fit(v, [m if ax == axis else size for ax, size in enumerate(np.shape(v))], [axis])
    half = half * _half_weights(m, full, axis, np.ndim(half))
    return np.real(np.fft.ifft(_rfft_full(half, full, axis), axis=axis, norm=norm))


def irfftn_adjoint_transpose(v, w, a, s=None, axes=None, norm=None, default=None):
    axes = _axes_of(a, s, axes, default)
    last = axes[-1]
    full = np.shape(w)[last]
    m = full // 2 + 1
    shape = [m if ax == last else np.shape(w)[ax] if ax in axes else size
             for ax, size in enumerate(np.shape(v))]
    half = _fit(v, shape, axes) * _half_weights(m, full, last, np.ndim(v))
    return np.real(np.fft.ifftn(_rfft_full(half, full, last), axes=axes, norm=norm))
