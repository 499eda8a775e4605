"""``numpy.fft``: every transform is linear, so each row is its transpose.

Complex cotangents pair as ``Re(sum(g * dz))`` (see ``srcgrad.runtime.fft_adjoints``):
a real signal through ``rfft``, complex arithmetic, and back to a real loss gets a real
gradient.
"""

import numpy as np

from srcgrad.rules.registry import deflinear

fft = np.fft
ONE_D = "a, n=None, axis=-1, norm=None, out=None"
TWO_D = "a, s=None, axes=(-2, -1), norm=None, out=None"
N_D = "a, s=None, axes=None, norm=None, out=None"

for _name in ("fft", "ifft"):
    deflinear(getattr(fft, _name), ONE_D,
              f"_sg.fft_adjoint(g, a, np.fft.{_name}, n, axis, norm)", linear_in="a")
for _name, _spec in (("fft2", TWO_D), ("ifft2", TWO_D), ("fftn", N_D), ("ifftn", N_D)):
    _transform = "np.fft.fftn" if _name.startswith("f") else "np.fft.ifftn"
    deflinear(getattr(fft, _name), _spec,
              f"_sg.fftn_adjoint(g, a, {_transform}, s, axes, norm)", linear_in="a")

deflinear(fft.rfft, ONE_D, "_sg.rfft_adjoint(g, a, n, axis, norm)", linear_in="a")
deflinear(fft.irfft, ONE_D, "_sg.irfft_adjoint(g, a, n, axis, norm)", linear_in="a")
deflinear(fft.rfft2, TWO_D, "_sg.rfftn_adjoint(g, a, s, axes, norm)", linear_in="a")
deflinear(fft.irfft2, TWO_D, "_sg.irfftn_adjoint(g, a, s, axes, norm)", linear_in="a")
deflinear(fft.rfftn, N_D, "_sg.rfftn_adjoint(g, a, s, axes, norm)", linear_in="a")
deflinear(fft.irfftn, N_D, "_sg.irfftn_adjoint(g, a, s, axes, norm)", linear_in="a")

deflinear(fft.fftshift, "x, axes=None", "np.fft.ifftshift(g, axes)")
deflinear(fft.ifftshift, "x, axes=None", "np.fft.fftshift(g, axes)")
