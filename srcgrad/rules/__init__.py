"""The derivative rule table (see ``registry``); importing this package fills it."""

from srcgrad.rules import (  # noqa: F401  # noqa: F401
    builtins_math,
    nondiff,
    numpy_elementwise,
    numpy_linalg,
    numpy_shape,
    operators,
    runtime_rules,
)
from srcgrad.rules.registry import (  # noqa: F401
    NONDIFF_ATTRIBUTES,
    REGISTRY,
    defadjoint,
    defelementwise,
    deflinear,
    defnondiff,
)
