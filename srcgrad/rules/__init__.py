"""The derivative rule table (see ``registry``); importing this package fills it.

``scipy.special``'s rows are registered on first need (``load_optional_rows``): importing
SciPy costs seconds, and a program that never calls it should not pay."""

from srcgrad.rules import (  # noqa: F401
    builtins_math,
    containers,
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
)
from srcgrad.rules.registry import (  # noqa: F401
    NONDIFF_ATTRIBUTES,
    REGISTRY,
    defadjoint,
    defelementwise,
    deflinear,
    defnondiff,
)


def load_optional_rows():
    """Register the rows of optional libraries (SciPy), once."""
    from srcgrad.rules import scipy_special  # noqa: F401


REGISTRY.load_optional = load_optional_rows
