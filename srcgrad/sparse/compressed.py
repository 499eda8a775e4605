"""Compression of a sparse Jacobian or Hessian by a colouring, and its decompression.

A ``Compression`` holds what a pattern and its colouring decide once: the seed matrix
``S`` (one column per colour, plus one *probe* column of fixed random numbers) and, for
every nonzero of the pattern in CSR order, where the compressed product holds it:

- ``"columns"``: ``B = J @ S`` (``m x c``, forward mode); ``J[i, j] = B[i, colour[j]]``;
- ``"rows"``: ``B = S.T @ J`` (``c x n``, reverse mode); ``J[i, j] = B[colour[i], j]``;
- ``"star"`` (symmetric ``H``): ``B = H @ S`` (``n x c``); ``H[i, j] = B[i, colour[j]]``
  when ``j`` is ``i``'s only neighbour of its colour, else ``B[j, colour[i]]``
  (a star colouring guarantees one of the two; ``H[i, i] = B[i, colour[i]]``).

The probe column gives ``J @ p`` (or ``p @ J``) from the same sweep; ``check_probe``
compares it with the decompressed matrix times ``p``, so a pattern that misses a nonzero
at this point is caught instead of giving a wrong matrix.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from srcgrad.sparse import colouring

# The probe's tolerance, relative to |J| @ |p| (row by row) and to its largest entry.
_PROBE_RTOL, _PROBE_FLOOR = 1e-7, 1e-12


@dataclass(frozen=True, eq=False)
class Compression:
    kind: str                 # "columns", "rows" or "star"
    colours: np.ndarray       # a colour per column ("columns", "star") or per row ("rows")
    count: int                # the number of colours
    shape: tuple[int, int]
    indptr: np.ndarray        # the pattern's CSR structure (sorted indices)
    indices: np.ndarray
    gather: np.ndarray        # per nonzero: its flat index into B (C order)
    probe: np.ndarray         # the probe vector (length n for columns/star, m for rows)
    made: dict = field(default_factory=dict, repr=False)   # seed matrices per dtype

    @property
    def nnz(self):
        return int(self.indices.size)

    def seeds(self, dtype=np.float64):
        """``S``: one column per colour, then the probe (``len(colours) x count + 1``;
        kept, read-only)."""
        dtype = np.dtype(dtype)
        seeds = self.made.get(dtype)
        if seeds is None:
            size = self.colours.size
            # (Fortran order: each direction's column is contiguous, so a tangent
            # shaped x.shape + (directions,) is laid out direction by direction, and
            # NumPy's elementwise loops run over whole columns, not along the short
            # trailing axis)
            seeds = np.zeros((size, self.count + 1), dtype=dtype, order="F")
            seeds[np.arange(size), self.colours] = 1.0
            seeds[:, self.count] = self.probe
            seeds.flags.writeable = False
            self.made[dtype] = seeds
        return seeds

    def decompress(self, compressed):
        """The sparse matrix (``scipy.sparse.csr_array``) from ``B`` with its probe
        column or row (``B``: ``m x count + 1``, or ``count + 1 x n`` for rows)."""
        data = np.ascontiguousarray(compressed).reshape(-1)[self.gather]
        return sp.csr_array((data, self.indices.copy(), self.indptr.copy()), shape=self.shape)

    def probe_result(self, compressed):
        return compressed[self.count] if self.kind == "rows" else compressed[:, self.count]

    def check_probe(self, matrix, compressed):
        """The rows (outputs; inputs for ``"rows"``) where the decompressed matrix times
        the probe differs from the probe's own sweep: empty when the pattern held."""
        measured = self.probe_result(compressed)
        rows = self.made.get("rows")
        if rows is None:
            rows = self.made["rows"] = np.repeat(np.arange(self.shape[0]),
                                                 np.diff(self.indptr))
        # J @ p (p @ J for rows) and |J| @ |p|, summed per row with bincount
        into, read, size = (self.indices, rows, self.shape[1]) if self.kind == "rows" \
            else (rows, self.indices, self.shape[0])
        terms = matrix.data * self.probe[read]
        expected = _sums(into, terms, size)
        scale = np.bincount(into, np.abs(terms), minlength=size)
        finite = np.isfinite(measured) & np.isfinite(expected) & np.isfinite(scale)
        tolerance = _PROBE_RTOL * scale + _PROBE_FLOOR * np.max(scale[finite], initial=0.0)
        wrong = finite & ~(np.abs(measured - expected) <= tolerance)
        return np.flatnonzero(wrong)


def _sums(into, terms, size):
    if terms.dtype.kind == "c":
        return np.bincount(into, terms.real, minlength=size) \
            + 1j * np.bincount(into, terms.imag, minlength=size)
    return np.bincount(into, terms, minlength=size)


def jacobian_compression(pattern, kinds=("columns", "rows")) -> Compression:
    """Colour ``pattern`` (``m x n`` bool) by columns and by rows (those in ``kinds``)
    and keep the one with fewer colours (columns on a tie: one batched sweep)."""
    p = _structure(pattern)
    if "columns" in kinds and p.shape[0] == p.shape[1] and not (p != p.T).nnz:
        kinds = ("columns",)   # a symmetric pattern: its rows colour as its columns
    best = None
    for kind in kinds:
        colours = colouring.column_colouring(p) if kind == "columns" \
            else colouring.row_colouring(p)
        if best is None or _count(colours) < _count(best[1]):
            best = (kind, colours)
    assert best is not None
    kind, colours = best
    count = _count(colours)
    rows = np.repeat(np.arange(p.shape[0]), np.diff(p.indptr))
    if kind == "columns":
        gather = rows * (count + 1) + colours[p.indices]
    else:
        gather = colours[rows] * p.shape[1] + p.indices
    return Compression(kind, colours, count, p.shape, p.indptr, p.indices, gather,
                       _probe(colours.size))


def hessian_compression(pattern) -> Compression:
    """A star colouring of the symmetric ``pattern`` (``n x n``) and where each nonzero
    is read from ``H @ S``."""
    p = _structure(pattern)
    colours = colouring.star_colouring(p)
    count = _count(colours)
    return Compression("star", colours, count, p.shape, p.indptr, p.indices,
                       star_gather(p, colours, count + 1), _probe(colours.size))


def star_gather(p, colours, width):
    """For each nonzero ``(i, j)`` of ``p`` (CSR order), its flat index into ``B = H @ S``
    (``n x width``): ``[i, colour[j]]`` when no other neighbour of ``i`` has ``j``'s
    colour, else ``[j, colour[i]]``. Raises if ``colours`` is not a star colouring."""
    rows = np.repeat(np.arange(p.shape[0]), np.diff(p.indptr))
    cols = p.indices
    off = rows != cols
    if np.any(colours[rows[off]] == colours[cols[off]]):
        raise AssertionError("not a distance-1 colouring")
    own = rows * width + colours[cols]       # [i, colour j]
    mirror = cols * width + colours[rows]    # [j, colour i]
    # how many neighbours i has of each colour its off-diagonal nonzeros meet
    unique, counts = np.unique(own[off], return_counts=True)
    alone = ~off | (_counts_at(unique, counts, own) == 1)
    if not np.all(alone | (_counts_at(unique, counts, mirror) == 1)):
        raise AssertionError("not a star colouring: a nonzero is alone in neither of its "
                             "two compressed columns")
    return np.where(alone, own, mirror)


def _counts_at(unique, counts, keys):
    if unique.size == 0:
        return np.zeros(keys.shape, dtype=np.int64)
    where = np.minimum(np.searchsorted(unique, keys), unique.size - 1)
    return np.where(unique[where] == keys, counts[where], 0)


def _structure(pattern):
    p = sp.csr_array(pattern, dtype=bool)
    p.eliminate_zeros()
    p.sum_duplicates()
    p.sort_indices()
    return sp.csr_array((np.ones(p.nnz, dtype=bool), p.indices.astype(np.int64),
                         p.indptr.astype(np.int64)), shape=p.shape)


def _count(colours):
    return int(colours.max(initial=-1)) + 1


def _probe(size):
    """A fixed vector of numbers in [1, 2) with varied signs (the same for each size)."""
    rng = np.random.default_rng(size)
    return rng.uniform(1.0, 2.0, size) * rng.choice([-1.0, 1.0], size)
