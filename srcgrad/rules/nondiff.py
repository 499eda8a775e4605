"""Functions whose results are locally constant in their float inputs: integers,
booleans, shapes, constants, piecewise-constant roundings.

Only such functions belong here: a function listed here gets a zero derivative whatever
it is called on. Functions that carry a value through some argument have rules instead
(``math.copysign``, ``np.arange``, ``np.bincount(..., weights=w)``, ``np.heaviside``,
``np.fft.fftfreq``, ``x.tolist()``: see ``value_carrying``) or none, so that a call on
values being differentiated is a MissingRuleError (``np.unique``, ``np.meshgrid``,
``np.histogram``, ``hash``; ``zip`` and ``enumerate`` are lowered, see ``iteration``).
``str`` and ``repr`` are kept: text carries no derivative (as an f-string does not).
``tests/soundness/test_nondiff_table.py`` walks every entry with finite differences.
"""

import builtins
import math

import numpy as np

from srcgrad.rules.registry import defnondiff
from srcgrad.runtime import call_method, sorted_order, stop_gradient

defnondiff(
    stop_gradient,
    builtins.len, builtins.range, builtins.int, builtins.bool, builtins.round,
    builtins.isinstance, builtins.type, builtins.print, builtins.str, builtins.repr,
    builtins.id, builtins.callable,
    math.floor, math.ceil, math.trunc, math.isnan, math.isinf, math.isfinite,
    np.floor, np.ceil, np.round, np.rint, np.trunc, np.fix, np.sign, np.floor_divide,
    np.argmax, np.argmin, np.argsort, np.argwhere, np.nonzero, np.flatnonzero,
    np.shape, np.ndim, np.size, np.zeros, np.ones, np.empty, np.eye, np.identity,
    np.zeros_like, np.ones_like, np.empty_like,
    np.isnan, np.isinf, np.isfinite, np.isclose, np.allclose, np.array_equal,
    np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
    np.logical_and, np.logical_or, np.logical_not, np.logical_xor, np.any, np.all,
    np.count_nonzero, np.searchsorted, np.digitize,
    np.tril_indices, np.triu_indices, np.diag_indices, np.indices,
    np.result_type, np.iscomplexobj, np.isscalar, np.broadcast_shapes,
    np.argpartition, np.lexsort, np.signbit, np.isreal, np.iscomplex, np.isrealobj,
    np.ravel_multi_index, np.unravel_index, np.array_equiv, np.isin, np.spacing,
    np.linalg.matrix_rank,
)

# ``obj.count(v)``, ``x.argmax()`` reached through a value (see ``srcgrad.compiler.dispatch``).
defnondiff(call_method, sorted_order)
