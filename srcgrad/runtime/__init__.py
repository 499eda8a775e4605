"""What generated code calls (as ``_sg``). Needs NumPy only: no gast, no compiler.

Helpers are small and named by what they compute, so generated code reads like math:
``dx = _sg.unbroadcast(g * y, x)`` sums a cotangent back to ``x``'s shape.

``core`` holds what every generated function uses (``shapes``: dtypes, shapes,
``unbroadcast``); ``adjoints`` and the ``*_adjoints``
modules what rule rows call;
``transposes`` what reverse mode over generated code calls;
``variables`` what eager units call to read Variables and return their cotangents.
"""

from srcgrad.runtime.accumulation import *  # noqa: F403
from srcgrad.runtime.adjoints import *  # noqa: F403
from srcgrad.runtime.aliasing import *  # noqa: F403
from srcgrad.runtime.array_adjoints import *  # noqa: F403
from srcgrad.runtime.array_transposes import *  # noqa: F403
from srcgrad.runtime.batched import *  # noqa: F403
from srcgrad.runtime.batched_reverse import *  # noqa: F403
from srcgrad.runtime.batched_reverse_calls import *  # noqa: F403
from srcgrad.runtime.container_adjoints import *  # noqa: F403
from srcgrad.runtime.convolution_adjoints import *  # noqa: F403
from srcgrad.runtime.core import *  # noqa: F403
from srcgrad.runtime.core import _FLOAT, _NDARRAY  # noqa: F401
from srcgrad.runtime.distribution_adjoints import *  # noqa: F403
from srcgrad.runtime.dtypes import *  # noqa: F403
from srcgrad.runtime.dynamic import *  # noqa: F403
from srcgrad.runtime.einsum_partials import *  # noqa: F403
from srcgrad.runtime.fft_adjoints import *  # noqa: F403
from srcgrad.runtime.floats import *  # noqa: F403
from srcgrad.runtime.fused import *  # noqa: F403
from srcgrad.runtime.guards import *  # noqa: F403
from srcgrad.runtime.index_tricks import *  # noqa: F403
from srcgrad.runtime.linalg_adjoints import *  # noqa: F403
from srcgrad.runtime.linalg_pieces import *  # noqa: F403
from srcgrad.runtime.moment_partials import *  # noqa: F403
from srcgrad.runtime.multi_dot_terms import *  # noqa: F403
from srcgrad.runtime.namespaces import *  # noqa: F403
from srcgrad.runtime.ode_adjoints import *  # noqa: F403
from srcgrad.runtime.prod_partials import *  # noqa: F403
from srcgrad.runtime.product_adjoints import *  # noqa: F403
from srcgrad.runtime.range_adjoints import *  # noqa: F403
from srcgrad.runtime.reentry import *  # noqa: F403
from srcgrad.runtime.reuse import *  # noqa: F403
from srcgrad.runtime.scipy_linalg_adjoints import *  # noqa: F403
from srcgrad.runtime.sequences import *  # noqa: F403
from srcgrad.runtime.shape_adjoints import *  # noqa: F403
from srcgrad.runtime.shapes import *  # noqa: F403
from srcgrad.runtime.slots import *  # noqa: F403
from srcgrad.runtime.special_adjoints import *  # noqa: F403
from srcgrad.runtime.spreads import *  # noqa: F403
from srcgrad.runtime.stats_adjoints import *  # noqa: F403
from srcgrad.runtime.stats_tangents import *  # noqa: F403
from srcgrad.runtime.structure_transposes import *  # noqa: F403
from srcgrad.runtime.tangents import *  # noqa: F403
from srcgrad.runtime.transposes import *  # noqa: F403
from srcgrad.runtime.variables import *  # noqa: F403
from srcgrad.runtime.wrt_values import *  # noqa: F403
