"""Rows for the adjoint helpers of ``numpy.fft`` (``srcgrad.runtime.fft_adjoints``): each
is linear in its cotangent, and ``a`` enters through its shape and dtype only. The
transpose of an adjoint is the forward transform again (the DFT matrix is symmetric),
padded or truncated as the primal does; each transpose's own transpose is the adjoint.

Before (a generated gradient)::          After (reverse mode over it)::

    da = _sg.fft_adjoint(g, a, np.fft.fft, n, axis, norm)
                                             dg = _sg.fft_adjoint_transpose(dda, g, a,
                                                      np.fft.fft, n, axis, norm)
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint

_ONE = "n=None, axis=-1, norm=None"
_ND = "s=None, axes=None, norm=None, default=None"
_PAIRS = [
    (rt.fft_adjoint, rt.fft_adjoint_transpose, "a, transform, " + _ONE,
     "a, transform, n, axis, norm"),
    (rt.fftn_adjoint, rt.fftn_adjoint_transpose, "a, transform, " + _ND,
     "a, transform, s, axes, norm, default"),
    (rt.rfft_adjoint, rt.rfft_adjoint_transpose, "a, " + _ONE, "a, n, axis, norm"),
    (rt.irfft_adjoint, rt.irfft_adjoint_transpose, "a, " + _ONE, "a, n, axis, norm"),
    (rt.rfftn_adjoint, rt.rfftn_adjoint_transpose, "a, " + _ND, "a, s, axes, norm, default"),
    (rt.irfftn_adjoint, rt.irfftn_adjoint_transpose, "a, " + _ND,
     "a, s, axes, norm, default"),
]
for _adjoint, _transpose, _spec, _args in _PAIRS:
    defadjoint(_adjoint, "v, " + _spec, tangent="linear",
               v=f"_sg.{_transpose.__name__}(g, v, {_args})")
    defadjoint(_transpose, "v, w, " + _spec, tangent="linear",
               v=f"_sg.{_adjoint.__name__}(g, {_args})")
