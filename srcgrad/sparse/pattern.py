"""Sparsity patterns of Jacobians and Hessians, found by a dependency sweep generated
from the function's source (``sparse.pattern_unit``): each value carries which wrt
elements it depends on (and, for a Hessian, which pairs of them meet in a nonlinear
operation on the way to it).

Layout: rows are the output's elements (flattened in C order; the items of a tuple or
list output concatenated), columns the wrt arguments' elements (flattened in C order,
concatenated in the order of ``wrt``).

Scope: ``"global"`` when the pattern holds for every value of the wrt inputs of these
shapes and dtypes (the other arguments as given: a constant matrix's zeros are used);
``"local"`` when a branch, a loop's test or range, an index, or a constant operand of a
rule read a value computed from the wrt inputs' values: loops then run, and branches
take the side, as at the given point. The pattern is always a superset of the true one
where it holds: an operation without a pattern rule makes its value depend on all its
inputs' dependencies (dense for that value), recorded in ``reasons``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import scipy.sparse as sp

from srcgrad.frontend import targets
from srcgrad.sparse import pattern_deps as pd
from srcgrad.sparse import pattern_unit
from srcgrad.sparse.pattern_deps import Deps


@dataclasses.dataclass(frozen=True)
class Pattern:
    matrix: sp.csr_array   # bool, (outputs, wrt elements) or (n, n) for a Hessian
    scope: str             # "global" or "local"
    reasons: tuple         # why local, where a value fell back to dense


def jacobian_pattern(f, wrt, args, kwargs):
    """The pattern of ``f``'s Jacobian w.r.t. the positional arguments ``wrt`` (a
    tuple of indices, or one index) at ``f(*args, **kwargs)``."""
    value, deps, record, n = _sweep(f, wrt, args, kwargs, second_order=False)
    blocks = [pd.rows_of(v, d, n) for v, d in _output_leaves(value, deps)]
    matrix = pd.vstack_rows(blocks) if blocks else pd.empty_rows(0, n)
    return _pattern(matrix.tocsr(), record)


def hessian_pattern(f, wrt, args, kwargs):
    """The (symmetric, ``n x n``) pattern of the Hessian of the scalar-valued ``f``."""
    value, deps, record, n = _sweep(f, wrt, args, kwargs, second_order=True)
    if np.size(value) != 1 or isinstance(value, (list, tuple, dict)):
        raise ValueError(f"hessian_pattern needs a scalar-valued function; "
                         f"{getattr(f, '__name__', f)} returned shape {np.shape(value)}")
    terms = pd.terms_of(deps.hess) if isinstance(deps, Deps) and deps.hess else []
    # sum over terms of a.T @ b: one product of the terms' rows stacked
    left = pd.vstack_rows([t.a for t in terms] or [pd.empty_rows(0, n)]).tocsr()
    right = pd.vstack_rows([t.b for t in terms] or [pd.empty_rows(0, n)]).tocsr()
    matrix = sp.csr_array(left.T @ right, dtype=bool)
    matrix = sp.csr_array(matrix + matrix.T, dtype=bool)
    matrix.sort_indices()
    return _pattern(matrix, record)


def _pattern(matrix, record):
    matrix = sp.csr_array(matrix, dtype=bool)
    matrix.eliminate_zeros()
    return Pattern(matrix, "local" if record.local else "global", record.reasons())


def _sweep(f, wrt, args, kwargs, second_order):
    fn, bound = targets._target(f)
    wrt = (wrt,) if isinstance(wrt, int) else tuple(wrt)
    params = targets.parameter_names(fn, bound)
    names = tuple(params[i] for i in wrt)
    args = tuple(args)
    call_args = (bound,) + args if bound is not None else args
    seeds, n, offset = [], sum(_size(args[i], params[i]) for i in wrt), 0
    for i in wrt:
        size = _size(args[i], params[i])
        rows = pd.identity_rows(size, n, offset)
        seeds.append(Deps(rows, pd.NO_INTERACTIONS if second_order else None))
        offset += size
    unit = pattern_unit.pattern_unit(fn, names)
    with pd.recording() as record:
        value, deps = pattern_unit.call(unit, call_args, seeds, **dict(kwargs or {}))
    return value, deps, record, n


def _size(value, name):
    if isinstance(value, (list, tuple, dict)) or not (
            isinstance(value, (int, float, complex, np.ndarray, np.generic))):
        raise TypeError(f"a sparsity pattern w.r.t. `{name}` needs an array or a number; "
                        f"got {type(value).__name__}")
    return int(np.size(value))


def _output_leaves(value, deps):
    """(value, deps) of each array of the output, in order."""
    if isinstance(value, (list, tuple)):
        items = deps if isinstance(deps, (list, tuple)) else [None] * len(value)
        for v, d in zip(value, items):
            yield from _output_leaves(v, d)
    elif isinstance(value, dict):
        raise TypeError("a sparsity pattern of a function returning a dict is not "
                        "supported; return an array or a tuple of arrays")
    else:
        yield value, deps
