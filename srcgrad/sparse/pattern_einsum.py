"""``np.einsum`` and batched ``matmul``: multilinear products, over the grid of all index
values (the work of the product itself, refused past ``MAX_GRID`` points: dense).

At each grid point the operands' elements multiply into one output element; the point
counts where every factor may be nonzero (it carries dependencies, or is a constant
nonzero). Each operand with dependencies then gives the output element the rows of its
element; at second order, two such operands' elements at one point interact.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from srcgrad.sparse import pattern_deps as pd
from srcgrad.sparse.pattern_deps import Term
from srcgrad.sparse.pattern_rules import TABLE, dense

MAX_GRID = 20_000_000
_SLOTS = ("o1", "o2", "o3", "o4", "o5", "o6", "o7")


def _may_be_nonzero(value, deps):
    mask = np.ravel(np.asarray(value) != 0)
    if deps is not None:
        mask = mask | (np.diff(deps.rows.indptr) > 0)
    return mask


def einsum_pattern(ans, in_specs, out_spec, operands, deps):
    """The ``Deps`` of ``ans = einsum(in_specs -> out_spec, *operands)``, or
    ``UNCOVERED`` where it cannot be found here (a caller falls back to dense)."""
    sizes = {}
    for spec, op in zip(in_specs, operands):
        if len(spec) != np.ndim(op):
            return pd.UNCOVERED
        for letter, size in zip(spec, np.shape(op)):
            if sizes.setdefault(letter, size) != size:
                return pd.UNCOVERED
    letters = sorted(sizes)
    total = int(np.prod([sizes[c] for c in letters], dtype=np.int64))
    if total > MAX_GRID or any(c not in sizes for c in out_spec):
        return pd.UNCOVERED
    grid = np.indices([sizes[c] for c in letters]).reshape(len(letters), -1) \
        if letters else np.zeros((0, 1), dtype=np.int64)
    where = {c: grid[i] for i, c in enumerate(letters)}

    def flat(spec):
        if not spec:
            return np.zeros(max(total, 1), dtype=np.int64)
        return np.ravel_multi_index([where[c] for c in spec], [sizes[c] for c in spec])

    out_ids = flat(out_spec)
    out_size = int(np.prod([sizes[c] for c in out_spec], dtype=np.int64))
    if out_size != pd.size_of(ans):
        return pd.UNCOVERED
    ids = [flat(spec) for spec in in_specs]
    keep = np.ones(out_ids.size, dtype=bool)
    for op, d, k in zip(operands, deps, ids):
        keep &= _may_be_nonzero(op, d)[k]
    inputs = [d for d in deps if d is not None]
    parts = []
    for op, d, k in zip(operands, deps, ids):
        if d is not None:
            matrix = sp.csr_array((np.ones(int(keep.sum()), dtype=bool),
                                   (out_ids[keep], k[keep])), shape=(out_size, np.size(op)))
            parts.append(pd.combine_rows(matrix, d.rows))
    terms = []
    if pd.merged_hess(inputs) is not None:
        carrying = [(d, k) for d, k in zip(deps, ids) if d is not None]
        for i, (di, ki) in enumerate(carrying):
            for dj, kj in carrying[i + 1:]:
                terms.append(Term(pd.take_rows(di.rows, ki[keep]),
                                  pd.take_rows(dj.rows, kj[keep])))
    return pd.made(pd.union(*parts), inputs, terms)


def _einsum(ans, values, deps):
    spec = values.get("subscripts")
    slots = [s for s in _SLOTS if s in values]
    operands = [values[s] for s in slots]
    odeps = [deps.get(s) for s in slots]
    found = pd.UNCOVERED
    if isinstance(spec, str) and "..." not in spec:
        spec = spec.replace(" ", "")
        inputs, _, output = spec.partition("->")
        in_specs = inputs.split(",")
        if "->" not in spec:   # implicit: the letters met once, in order
            joined = "".join(in_specs)
            output = "".join(sorted(c for c in set(joined) if joined.count(c) == 1))
        if len(in_specs) == len(operands):
            found = einsum_pattern(ans, in_specs, output, operands, odeps)
    if found is pd.UNCOVERED:
        return dense(ans, deps, f"np.einsum at {pd.user_location()} (with '...', "
                                "broadcasting, or too large a grid): dense")
    return found


def batched_matmul(ans, a, b, da, db):
    """``a @ b`` with more than two dimensions: the batch broadcast, then as einsum."""
    a_shape = (1,) + np.shape(a) if np.ndim(a) == 1 else np.shape(a)
    b_shape = np.shape(b) + (1,) if np.ndim(b) == 1 else np.shape(b)
    batch = np.broadcast_shapes(a_shape[:-2], b_shape[:-2])
    operands, odeps = [], []
    for value, d, shape in ((a, da, a_shape), (b, db, b_shape)):
        full = batch + shape[-2:]
        value = np.broadcast_to(np.reshape(value, shape), full)
        if d is not None:
            rows = pd.broadcast_rows(d.rows, shape, full)
            d = pd.Deps(rows, d.hess)
        operands.append(value)
        odeps.append(d)
    letters = "abcdefghijklmnopqrstuvw"[:len(batch)]
    return einsum_pattern(ans, [letters + "xy", letters + "yz"], letters + "xz", operands,
                          odeps)


TABLE["numpy.einsum"] = _einsum
