"""Test rows for numpy.fft: complex outputs pair with complex cotangents as Re(<W, y>)."""

import numpy as np

from tests.rules.harness import normal, row

fft = np.fft

ROWS = [
    row("numpy.fft.fft", lambda a: fft.fft(a), normal(6)),
    row("numpy.fft.fft", lambda a: fft.fft(a, n=8, axis=0, norm="ortho"), normal(5, 2),
        note="padded, ortho"),
    row("numpy.fft.ifft", lambda a: fft.ifft(a, n=4), normal(2, 6), note="truncated"),
    row("numpy.fft.fft2", lambda a: fft.fft2(a), normal(3, 4)),
    row("numpy.fft.ifft2", lambda a: fft.ifft2(a, norm="forward"), normal(2, 3, 4)),
    row("numpy.fft.fftn", lambda a: fft.fftn(a, s=(4, 2), axes=(0, 2)), normal(3, 2, 3)),
    row("numpy.fft.ifftn", lambda a: fft.ifftn(a), normal(2, 3)),
    row("numpy.fft.rfft", lambda a: fft.rfft(a), normal(6)),
    row("numpy.fft.rfft", lambda a: fft.rfft(a, axis=0), normal(5, 2), note="odd"),
    row("numpy.fft.rfft", lambda a: np.abs(fft.rfft(a)) ** 2, normal(8), note="power spectrum"),
    row("numpy.fft.irfft", lambda a: fft.irfft(fft.rfft(a) * 0.5j), normal(6),
        note="complex filter"),
    row("numpy.fft.irfft", lambda a: fft.irfft(a), normal(5), note="real input"),
    row("numpy.fft.irfft", lambda a: fft.irfft(a, n=7, norm="ortho"), normal(2, 4),
        note="odd n"),
    row("numpy.fft.rfft2", lambda a: fft.rfft2(a), normal(3, 4)),
    row("numpy.fft.irfft2", lambda a: fft.irfft2(fft.rfft2(a) * 2j), normal(4, 4)),
    row("numpy.fft.rfftn", lambda a: fft.rfftn(a, axes=(0, 1)), normal(3, 5, 2)),
    row("numpy.fft.irfftn", lambda a: fft.irfftn(a, s=(3, 5), axes=(0, 1)), normal(3, 3)),
    row("numpy.fft.fftshift", lambda x: fft.fftshift(x), normal(5)),
    row("numpy.fft.ifftshift", lambda x: fft.ifftshift(x, axes=0), normal(5, 2)),
    row("numpy.absolute", lambda a: np.abs(fft.fft(a)), normal(5), note="complex modulus"),
    row("numpy.real", lambda a: np.real(fft.fft(a)), normal(4)),
    row("numpy.imag", lambda a: np.imag(fft.fft(a)), normal(4)),
    row("numpy.conjugate", lambda a: np.real(np.conj(fft.fft(a)) * fft.fft(a)), normal(4)),
    row("numpy.angle", lambda a: np.angle(fft.fft(a))[1:3], normal(4)),
    row("numpy.nan_to_num", lambda a: np.nan_to_num(a), normal(4)),
]
