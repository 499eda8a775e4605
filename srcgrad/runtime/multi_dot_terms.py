"""The derivatives of ``np.linalg.multi_dot(arrays)`` at every order, as two multilinear
maps of directions (lists shaped like ``arrays``):

    terms(dirs, arrays)       = sum over distinct positions p_1..p_k of the chain with
                                arrays[p_m] replaced by dirs[m][p_m]   (D^k multi_dot)
    cotangents(g, dirs, arrays)[p] = the transpose in ``e`` of terms(dirs + [e], arrays),
                                read at position p

``multi_dot_tangent`` is ``terms`` with one direction, ``multi_dot_adjoint`` is
``cotangents`` with none; each one's derivative through ``arrays`` adds a direction, and
each one's transpose in a direction is the other (``rules.runtime_multi_dot_rules``).
Transposes are plain (``a.T``), as ``matmul``'s adjoint: for complex arrays the
cotangent pairing is bilinear. A 1-D first array is a row, a 1-D last one a column.
"""

from __future__ import annotations

import itertools

import numpy as np


def _as_matrices(arrays):
    """The chain as 2-D matrices, with ``multi_dot``'s 1-D conventions."""
    mats = [np.atleast_2d(m) for m in arrays]
    if np.ndim(arrays[-1]) == 1:
        mats[-1] = np.reshape(arrays[-1], (-1, 1))
    return mats


def _is_zero(item):
    return item is None or (np.ndim(item) == 0 and not np.any(item))


def _substitutions(dirs, n, exclude=()):
    """Each assignment of the directions to distinct positions (none of ``exclude``),
    as ``{position: item}``, skipping those that place a zero item."""
    free = [p for p in range(n) if p not in exclude]
    for positions in itertools.permutations(free, len(dirs)):
        items = {p: d[p] for p, d in zip(positions, dirs)}
        if not any(_is_zero(item) for item in items.values()):
            yield items


def _chain(arrays, items):
    chain = [items.get(p, a) for p, a in enumerate(arrays)]
    return [np.reshape(c, np.shape(a)) for c, a in zip(chain, arrays)]


def _product(mats):
    return mats[0] if len(mats) == 1 else np.linalg.multi_dot(mats)


def _terms(dirs, arrays):
    """``D^k multi_dot(arrays)[dirs...]``: zero (of the product's shape) without terms."""
    arrays = list(arrays)
    out = [np.linalg.multi_dot(_chain(arrays, items))
           for items in _substitutions(dirs, len(arrays))]
    if not out:
        return np.zeros(np.shape(np.linalg.multi_dot(arrays)))
    return sum(out[1:], out[0])


def _cotangent_at(g2, mats, p):
    if p > 0:
        g2 = _product(mats[:p]).T @ g2
    if p < len(mats) - 1:
        g2 = g2 @ _product(mats[p + 1:]).T
    return g2


def _cotangents(g, dirs, arrays):
    """Per position ``p``: the cotangent of ``arrays[p]`` in ``terms(dirs + [e], arrays)``."""
    arrays = list(arrays)
    mats = _as_matrices(arrays)
    g2 = np.reshape(g, (mats[0].shape[0], mats[-1].shape[1]))
    out = []
    for p, array in enumerate(arrays):
        parts = [_cotangent_at(g2, _as_matrices(_chain(arrays, items)), p)
                 for items in _substitutions(dirs, len(arrays), exclude=(p,))]
        total = sum(parts[1:], parts[0]) if parts else np.zeros(mats[p].shape, g2.dtype)
        out.append(np.reshape(total, np.shape(array)))
    return out


def multi_dot_tangent(d, arrays):
    """The product rule over the chain: one term per array with a nonzero tangent."""
    return _terms([d], arrays)


def multi_dot_second(d, e, arrays):
    return _terms([d, e], arrays)


def multi_dot_third(d, e, f, arrays):
    return _terms([d, e, f], arrays)


def multi_dot_adjoint(v, arrays):
    """Cotangents of each matrix in ``np.linalg.multi_dot(arrays)``."""
    return _cotangents(v, [], arrays)


def multi_dot_adjoint_tangent(v, d, arrays):
    return _cotangents(v, [d], arrays)


def multi_dot_adjoint_second(v, d, e, arrays):
    return _cotangents(v, [d, e], arrays)
