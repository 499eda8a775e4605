"""Functions whose results carry no derivative: integers, booleans, shapes, constants."""

import builtins
import math

import numpy as np

from srcgrad.rules.registry import defnondiff
from srcgrad.runtime import stop_gradient

defnondiff(
    stop_gradient,
    builtins.len, builtins.range, builtins.int, builtins.bool, builtins.round,
    builtins.isinstance, builtins.type, builtins.print, builtins.enumerate, builtins.zip,
    builtins.str, builtins.repr, builtins.id, builtins.hash, builtins.callable,
    math.floor, math.ceil, math.trunc, math.isnan, math.isinf, math.isfinite, math.copysign,
    np.floor, np.ceil, np.round, np.rint, np.trunc, np.fix, np.sign, np.floor_divide,
    np.argmax, np.argmin, np.argsort, np.argwhere, np.nonzero, np.flatnonzero,
    np.shape, np.ndim, np.size, np.zeros, np.ones, np.empty, np.eye, np.identity,
    np.zeros_like, np.ones_like, np.empty_like, np.arange,
    np.isnan, np.isinf, np.isfinite, np.isclose, np.allclose, np.array_equal,
    np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
    np.logical_and, np.logical_or, np.logical_not, np.logical_xor, np.any, np.all,
    np.count_nonzero, np.searchsorted, np.digitize, np.bincount, np.unique,
    np.tril_indices, np.triu_indices, np.diag_indices, np.indices, np.meshgrid,
    np.result_type, np.iscomplexobj, np.isscalar, np.broadcast_shapes,
    np.argpartition, np.lexsort, np.heaviside, np.signbit, np.isreal, np.iscomplex,
    np.isrealobj, np.histogram, np.histogram_bin_edges, np.ravel_multi_index,
    np.unravel_index, np.array_equiv, np.isin, np.spacing,
    np.linalg.matrix_rank, np.fft.fftfreq, np.fft.rfftfreq,
)
