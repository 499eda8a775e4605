"""Shared test helpers: independent oracles (finite differences, directional checks)."""

import numpy as np
import pytest


def numeric_grad(f, args, index, eps=1e-6):
    """Central finite differences of scalar ``f`` w.r.t. ``args[index]``."""
    args = list(args)
    x = args[index]
    if np.ndim(x) == 0:
        plus, minus = list(args), list(args)
        plus[index], minus[index] = x + eps, x - eps
        return (f(*plus) - f(*minus)) / (2 * eps)
    x = np.asarray(x, dtype=float)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        plus, minus = list(args), list(args)
        plus[index], minus[index] = xp, xm
        out[i] = (f(*plus) - f(*minus)) / (2 * eps)
    return out


def directional_check(f, args, index, grad_value, eps=1e-6, rng=None):
    """<grad, v> against the central difference of f along a random direction v."""
    rng = rng or np.random.default_rng(0)
    args = list(args)
    x = np.asarray(args[index], dtype=float)
    v = rng.standard_normal(x.shape)
    plus, minus = list(args), list(args)
    plus[index] = (x + eps * v) if x.ndim else float(x + eps * v)
    minus[index] = (x - eps * v) if x.ndim else float(x - eps * v)
    numeric = (f(*plus) - f(*minus)) / (2 * eps)
    analytic = float(np.sum(np.asarray(grad_value) * v))
    return numeric, analytic


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


# Full test matrices: CI runs a deterministic sample; each option runs its whole matrix.
FULL_MATRICES = {
    "rule_orders_full": ("--rule-orders-full", "every rule row at orders 2 and 3 in every "
                         "composition (tests/rules/test_rule_orders.py)"),
    "complex_rows_full": ("--complex-rows-full", "every rule row with complex inputs at every "
                          "shape variant, in both modes (tests/rules/test_complex_rules.py)"),
    "list_mutations_full": ("--list-mutations-full", "every pair of list mutations, in every "
                            "mode (tests/calls/test_list_mutation_sequences.py)"),
    "large_functions_full": ("--large-functions-full", "large functions at full size: 5,000 "
                             "statements, 98 nested blocks, 200 exits "
                             "(tests/programs/test_large_functions.py)"),
    "batched_reverse_full": ("--batched-reverse-full", "the batched reverse sweep on every "
                             "rule row, shape variant and dtype "
                             "(tests/higher/test_batched_reverse.py)"),
    "xp_full": ("--xp-full", "every array API case on every library (NumPy, "
                "array-api-strict, torch, JAX, dask) in every mode "
                "(tests/array_api/test_cross_library.py)"),
    "corpus_jacobians_full": ("--corpus-jacobians-full", "jacfwd on every corpus program "
                              "(tests/corpus/test_corpus_jacobians.py)"),
    "corpus_sparse_full": ("--corpus-sparse-full", "sparse against dense Jacobians and "
                           "Hessians on every corpus program (tests/sparse/test_corpus_sparse.py)"),
    "function_tables_full": ("--function-tables-full", "every container of functions with "
                             "every read and item pair (tests/calls/test_function_tables.py), "
                             "every property second derivative "
                             "(tests/calls/test_property_second_derivatives.py)"),
    "corpus_patterns_full": ("--corpus-patterns-full", "the Jacobian sparsity pattern of "
                             "every corpus program (tests/sparse/test_corpus_patterns.py)"),
}


def pytest_addoption(parser):
    for option, what in FULL_MATRICES.values():
        parser.addoption(option, action="store_true", help=f"run {what}; CI runs a sample")


def pytest_configure(config):
    for marker, (option, what) in FULL_MATRICES.items():
        config.addinivalue_line("markers", f"{marker}: {what} (run with {option})")


def pytest_collection_modifyitems(config, items):
    for marker, (option, _) in FULL_MATRICES.items():
        if config.getoption(option):
            continue
        skip = pytest.mark.skip(reason=f"the full matrix runs with {option}")
        for item in items:
            if marker in item.keywords:
                item.add_marker(skip)
