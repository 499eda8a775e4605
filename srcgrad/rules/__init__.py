"""The derivative rule table (see ``registry``); importing this package fills it.

SciPy's (and ``array_api_compat``'s) rows are registered on first need, one subpackage
at a time, once the program has imported it (``REGISTRY.optional``): importing SciPy
costs seconds, and a program that never calls it should not pay. ``load_optional_rows``
registers them all."""

import importlib

from srcgrad.rules.registry import (  # noqa: F401
    NONDIFF_ATTRIBUTES,
    REGISTRY,
    defadjoint,
    defelementwise,
    deflinear,
    defnondiff,
)

# srcgrad's own tables, registered on import (each module's rows at its import)
_OWN_ROWS = ("builtins_math", "containers", "index_tricks", "nondiff", "numpy_elementwise",
             "numpy_fft", "numpy_indexing", "numpy_linalg", "numpy_products", "numpy_reductions",
             "numpy_shape", "numpy_windows", "operators", "runtime_adjoint_rules",
             "runtime_array_rules", "runtime_batched_rules", "runtime_distribution_rules",
             "runtime_dynamic_rules", "runtime_fft_rules", "runtime_linalg_pieces_rules",
             "runtime_linalg_rules", "runtime_multi_dot_rules",
             "runtime_partial_rules", "runtime_product_rules", "runtime_rules",
             "runtime_scalar_rules",
             "runtime_stats_rules", "runtime_structure_rules", "value_carrying")
with REGISTRY.own_rows():
    for _name in _OWN_ROWS:
        importlib.import_module(f"srcgrad.rules.{_name}")


def _loader(module):
    def load():
        importlib.import_module(f"srcgrad.rules.{module}")
    return load


OPTIONAL_ROWS = {"scipy.special": _loader("scipy_special"), "scipy.stats": _loader("scipy_stats"),
                 "scipy.linalg": _loader("scipy_linalg"),
                 "scipy.integrate": _loader("scipy_integrate"),
                 "scipy.signal": _loader("scipy_signal"),
                 "array_api_compat": _loader("array_api_compat_rows")}
REGISTRY.optional.update(OPTIONAL_ROWS)


def load_optional_rows():
    """Register the rows of every optional library (SciPy) that imports, once."""
    for load in OPTIONAL_ROWS.values():
        load()
    REGISTRY.optional.clear()
