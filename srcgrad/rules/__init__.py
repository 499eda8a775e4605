"""The derivative rule table (see ``registry``); importing this package fills it."""

from srcgrad.rules import (  # noqa: F401
    builtins_math,
    nondiff,
    numpy_elementwise,
    numpy_fft,
    numpy_indexing,
    numpy_linalg,
    numpy_products,
    numpy_reductions,
    numpy_shape,
    operators,
    runtime_rules,
    scipy_special,
)
from srcgrad.rules.registry import (  # noqa: F401
    NONDIFF_ATTRIBUTES,
    REGISTRY,
    defadjoint,
    defelementwise,
    deflinear,
    defnondiff,
)
