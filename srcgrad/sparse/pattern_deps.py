"""What the generated dependency sweep computes with (``_dep`` in its globals).

A value that depends on the ``n`` wrt elements carries a ``Deps``: ``rows``, a boolean
sparse matrix (``Rows``: CSR arrays) of shape ``(value.size, n)`` (row ``i``: the wrt elements
element ``i`` of the value, C order, depends on; a ``Rows``), and for a Hessian pattern ``hess``:
the second-order interactions met on the way to it (a ``Hess`` of ``Term``s; None when
only first order is asked). A value that depends on nothing carries ``None``; a list,
tuple or dict carries a container of the same shape holding its items' ``Deps``.

Structural operations move rows (``take_rows``: an integer array of element ids, -1
for an element that depends on nothing); elementwise ones OR their operands' rows
under broadcasting (``broadcast_rows``); reductions OR rows in groups (``group_rows``).
"""

from __future__ import annotations

import contextvars
import sys

import numpy as np
import scipy.sparse as sp

# Past this many stored entries a value's dependency matrix is refused (never an
# ``n x n`` dense matrix built by accident: the error names the operation).
MAX_ENTRIES = 200_000_000


class Deps:
    """The dependencies of one array (or number)."""

    __slots__ = ("rows", "hess")

    def __init__(self, rows, hess=None):
        self.rows = rows
        self.hess = hess

    @property
    def n(self):
        return self.rows.shape[1]

    def __repr__(self):
        return f"Deps({self.rows.shape[0]} x {self.rows.shape[1]}, nnz={self.rows.nnz})"


# what a rule's helper returns for a case it does not cover (None means "depends on
# nothing"): the rule then falls back to dense
UNCOVERED = type("Uncovered", (), {"__repr__": lambda self: "UNCOVERED"})()


class Term:
    """A second-order interaction: every wrt element of ``a``'s row ``i`` with every one
    of ``b``'s row ``i`` (the Hessian pattern gets ``a.T @ b`` and its transpose)."""

    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a, self.b = a, b


# -- recording what made the pattern local or dense ----------------------------------
_RECORD: contextvars.ContextVar = contextvars.ContextVar("srcgrad_pattern_record", default=None)


class Record:
    """What one sweep noted: ``local`` (the pattern holds at this point only) and
    ``dense`` (a value whose rows fell back to the union of its inputs'), in order."""

    def __init__(self):
        self.local, self.dense = {}, {}

    def reasons(self):
        return tuple(self.local) + tuple(self.dense)


def recording():
    """``with recording() as record:`` collects what the sweeps run inside note."""
    return _Recording()


class _Recording:
    def __enter__(self):
        self.record = Record()
        self.token = _RECORD.set(self.record)
        return self.record

    def __exit__(self, *exc):
        _RECORD.reset(self.token)


def local(reason):
    """Note that the pattern holds at the given point only (generated code calls it
    where a branch, a loop or an index reads a value computed from the inputs)."""
    record = _RECORD.get()
    if record is not None:
        record.local.setdefault(reason, None)


def local_unless(deps, reason):
    """``local(reason)`` when a value computed from the inputs carries no dependencies
    (an index, a count found from them): it chose a structure."""
    if deps is None:
        local(reason)


def note_dense(reason):
    record = _RECORD.get()
    if record is not None:
        record.dense.setdefault(reason, None)


def user_location():
    """``file:line`` of the user's line that the innermost generated sweep running now
    came from, or ``"?"``."""
    from srcgrad.compiler import debug

    frame = sys._getframe(1)
    while frame is not None:
        function = frame.f_globals.get(frame.f_code.co_name)
        unit = getattr(function, "unit", None)
        if unit is not None and frame.f_code.co_filename == getattr(unit, "filename", None):
            found = debug.origin(unit, frame.f_lineno)
            if found is not None:
                return f"{found[0]}:{found[1]}"
        frame = frame.f_back
    return "?"


# -- rows ---------------------------------------------------------------------------
# Below this many entries an operation is done in NumPy: SciPy's sparse constructors
# cost ~0.1 ms each, which a loop over elements pays at every step.
SMALL = 4096


class Rows:
    """A boolean CSR matrix without SciPy's per-object cost: ``indptr``, ``indices``
    (int64, no column twice in a row) and ``shape``; ``tocsr()`` gives SciPy's."""

    __slots__ = ("indptr", "indices", "shape")

    def __init__(self, indptr, indices, shape):
        self.indptr, self.indices, self.shape = indptr, indices, shape

    @property
    def nnz(self):
        return len(self.indices)

    def tocsr(self):
        return sp.csr_array((np.ones(len(self.indices), dtype=bool), self.indices,
                             self.indptr), shape=self.shape)

    @classmethod
    def from_csr(cls, matrix):
        """(``matrix``: canonical, as SciPy's sums and products are; or made so)"""
        matrix = sp.csr_array(matrix)
        if not matrix.has_canonical_format:
            matrix.sum_duplicates()
        matrix.eliminate_zeros()
        return cls(matrix.indptr, matrix.indices, matrix.shape)

    def row_of_entry(self):
        return np.repeat(np.arange(self.shape[0], dtype=np.int64), np.diff(self.indptr))


def empty_rows(count, n):
    return Rows(np.zeros(count + 1, dtype=np.int64), np.zeros(0, dtype=np.int64), (count, n))


def identity_rows(count, n, offset):
    """Rows ``0..count-1`` depending on wrt elements ``offset..offset+count-1``."""
    return Rows(np.arange(count + 1, dtype=np.int64),
                np.arange(offset, offset + count, dtype=np.int64), (count, n))


def _checked(count, n, entries, what):
    if entries > MAX_ENTRIES:
        raise MemoryError(f"srcgrad: the dependency pattern of {what} would hold {entries} "
                          f"entries ({count} elements x up to {n} wrt elements): too dense "
                          "to build")


def from_pairs(rows, cols, count, n):
    """The ``Rows`` with entry ``(rows[k], cols[k])`` for each ``k`` (repeats once)."""
    if len(rows) <= SMALL:
        keys = _sorted_unique(np.asarray(rows, dtype=np.int64) * n + cols)
        return Rows(np.searchsorted(keys // n if n else keys, np.arange(count + 1)),
                    keys % n if n else keys, (count, n))
    matrix = sp.coo_array((np.ones(len(rows), dtype=bool), (rows, cols)), shape=(count, n))
    return Rows.from_csr(matrix.tocsr())


def _sorted_unique(values):
    """``np.unique`` by a sort (NumPy's hashing unique costs ~0.2 ms on small arrays)."""
    values = np.sort(values, kind="stable")
    if len(values) < 2:
        return values
    keep = np.empty(len(values), dtype=bool)
    keep[0] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values[keep]


def take_rows(rows, ids):
    """Row ``ids[k]`` of ``rows`` for each ``k`` (an empty row where ``ids[k] < 0``)."""
    ids = np.asarray(ids, dtype=np.int64).ravel()
    indptr = rows.indptr
    if len(ids) == 1 and ids[0] >= 0:   # (one element: a loop over elements)
        start, end = indptr[ids[0]], indptr[ids[0] + 1]
        return Rows(np.array([0, end - start], dtype=np.int64), rows.indices[start:end],
                    (1, rows.shape[1]))
    valid = ids >= 0
    safe = np.where(valid, ids, 0)
    starts = indptr[safe]
    counts = np.where(valid, indptr[safe + 1] - starts, 0)
    new_indptr = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(counts, out=new_indptr[1:])
    total = int(new_indptr[-1])
    _checked(len(ids), rows.shape[1], total, "a gathered value")
    where = np.repeat(starts - new_indptr[:-1], counts) + np.arange(total, dtype=np.int64)
    return Rows(new_indptr, rows.indices[where], (len(ids), rows.shape[1]))


def union(*matrices):
    """Elementwise OR of same-shaped ``Rows``."""
    if len(matrices) == 1:
        return matrices[0]
    count, n = matrices[0].shape
    if count == 1:
        indices = _sorted_unique(np.concatenate([m.indices for m in matrices]))
        return Rows(np.array([0, len(indices)], dtype=np.int64), indices, (1, n))
    if sum(m.nnz for m in matrices) <= SMALL:
        return from_pairs(np.concatenate([m.row_of_entry() for m in matrices]),
                          np.concatenate([m.indices for m in matrices]), count, n)
    total = matrices[0].tocsr()
    for other in matrices[1:]:
        total = total + other.tocsr()
    return Rows.from_csr(total)


def replace_row(rows, position, row):
    """``rows`` with row ``position`` replaced by the single row ``row``."""
    start, end = rows.indptr[position], rows.indptr[position + 1]
    indptr = rows.indptr.astype(np.int64, copy=True)
    indptr[position + 1:] += row.nnz - (end - start)
    indices = np.concatenate([rows.indices[:start], row.indices, rows.indices[end:]])
    return Rows(indptr, indices, rows.shape)


def vstack_rows(blocks):
    """``blocks`` (``Rows`` of one width) one above the other."""
    n = blocks[0].shape[1]
    offsets = np.cumsum([0] + [b.nnz for b in blocks])
    indptr = np.concatenate([[0]] + [b.indptr[1:] + o for b, o in zip(blocks, offsets)])
    indices = np.concatenate([b.indices for b in blocks])
    return Rows(indptr.astype(np.int64), indices, (sum(b.shape[0] for b in blocks), n))


def group_rows(rows, groups, count):
    """Row ``g`` of the result: the OR of the rows ``i`` with ``groups[i] == g`` (rows
    whose group is negative are dropped)."""
    groups = np.asarray(groups, dtype=np.int64).ravel()
    target = np.repeat(groups, np.diff(rows.indptr))
    keep = target >= 0
    return from_pairs(target[keep], rows.indices[keep], count, rows.shape[1])


def combine_rows(matrix, rows):
    """``matrix @ rows`` in the boolean semiring: row ``i`` is the OR of the rows ``j``
    with ``matrix[i, j]`` set (``matrix``: any sparse 0/1 matrix)."""
    matrix = sp.csr_array(matrix, dtype=bool)
    matrix.sum_duplicates()
    matrix.eliminate_zeros()
    estimate = int(np.diff(rows.indptr)[matrix.indices].sum()) if matrix.nnz else 0
    _checked(matrix.shape[0], rows.shape[1], estimate, "a combined value")
    return Rows.from_csr(matrix @ rows.tocsr())


def size_of(value):
    return int(np.size(value))


def shape_of(value):
    return np.shape(value)


def rows_of(value, deps, n):
    """``deps``'s rows, or empty rows for a value that depends on nothing."""
    if deps is None:
        return empty_rows(size_of(value), n)
    return deps.rows


def broadcast_rows(rows, shape, out_shape):
    """The rows of a value of ``shape`` broadcast to ``out_shape``."""
    if tuple(shape) == tuple(out_shape):
        return rows
    ids = np.broadcast_to(np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape),
                          out_shape)
    return take_rows(rows, ids)


def width(*deps):
    """``n`` of the first ``Deps`` among ``deps`` (None when there is none)."""
    for d in deps:
        if isinstance(d, Deps):
            return d.n
    return None


class Hess:
    """The second-order interactions met on the way to a value: its own ``terms`` and
    those of ``parents`` (a DAG shared between values, so that joining costs O(1) per
    operation, not the number of terms met so far; ``terms_of`` lists them once)."""

    __slots__ = ("terms", "parents", "empty")

    def __init__(self, terms=(), parents=()):
        self.terms, self.parents = tuple(terms), tuple(parents)
        self.empty = not self.terms and all(p.empty for p in self.parents)

    def __bool__(self):
        return not self.empty

    def __iter__(self):
        return iter(terms_of(self))


NO_INTERACTIONS = Hess()


def terms_of(hess):
    """Every ``Term`` reachable from ``hess``, once each."""
    seen, found, todo = set(), {}, [hess]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        found.update((id(t), t) for t in node.terms)
        todo.extend(node.parents)
    return list(found.values())


def merged_hess(deps, terms=()):
    """The second-order interactions of a value computed from ``deps``: theirs and
    ``terms`` (None when none of them tracks second order)."""
    found = {}
    for d in deps:
        if isinstance(d, Deps) and d.hess is not None:
            found.setdefault(id(d.hess), d.hess)
    if not found:
        return None
    parents = [h for h in found.values() if not h.empty]
    if not terms and len(parents) <= 1:
        return parents[0] if parents else NO_INTERACTIONS
    return Hess(terms, parents)


def made(rows, inputs, terms=()):
    """A ``Deps`` for rows computed from ``inputs`` (their hess carried along), or None
    when no row depends on anything and nothing of second order is carried."""
    hess = merged_hess(inputs, terms)
    if rows.nnz == 0 and not hess:
        return None
    return Deps(rows, hess)


def selected_ids(value, key):
    """The element ids ``value[key]`` selects (an integer key without building them all)."""
    shape = np.shape(value)
    if isinstance(key, (int, np.integer)) and len(shape) == 1:
        return np.array(int(key) % shape[0]) if shape[0] else np.zeros(0, dtype=np.int64)
    if isinstance(key, tuple) and len(key) == len(shape) and shape and \
            all(isinstance(k, (int, np.integer)) for k in key):
        return np.array(np.ravel_multi_index(tuple(int(k) % s for k, s in zip(key, shape)),
                                             shape))
    return element_ids(value)[key]


def element_ids(value, start=0):
    """The element ids of ``value`` (``start``, ``start + 1``, ...) shaped like it."""
    shape = np.shape(value)
    return np.arange(start, start + int(np.prod(shape, dtype=np.int64)),
                     dtype=np.int64).reshape(shape)
