"""Products of matrices: ``C = A @ B`` element ``(i, j)`` depends on ``B[l, j]`` where
``A[i, l]`` may be nonzero, and on ``A[i, l]`` where ``B[l, j]`` may be.

"May be nonzero": an element that carries dependencies, or a constant element that is
not zero. A constant operand's zeros are thus used: with the other arguments as given
(constants of the sweep), the pattern holds for every value of the wrt inputs. Both
as sparse 0/1 matrices over element ids::

    C rows = kron(mask(A), I_p) @ B rows  OR  kron(I_m, mask(B).T) @ A rows

At second order, ``A[i, l]`` meets ``B[l, j]`` for every ``i, j``: the pairs are those of
the union of column ``l`` of ``A``'s rows with row ``l`` of ``B``'s.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from srcgrad.sparse import pattern_deps as pd
from srcgrad.sparse.pattern_deps import Term
from srcgrad.sparse.pattern_rules import TABLE, dense


def _mask(value, deps):
    """The elements of ``value`` that may be nonzero (a boolean array shaped like it)."""
    mask = np.asarray(value) != 0
    if deps is not None:
        mask = mask | (np.diff(deps.rows.indptr) > 0).reshape(mask.shape)
    return mask


def matrix_product(ans, a, b, da, db):
    """The rows of ``ans = a @ b`` for operands of at most two dimensions."""
    a2 = np.atleast_2d(a) if np.ndim(a) else None
    b2 = np.asarray(b).reshape(-1, 1) if np.ndim(b) == 1 else np.asarray(b)
    if a2 is None or b2.ndim != 2 or np.ndim(a) > 2 or a2.shape[1] != b2.shape[0]:
        return None
    (m, k), p = a2.shape, b2.shape[1]
    inputs = [d for d in (da, db) if d is not None]
    parts = []
    if db is not None:
        ka = sp.kron(sp.csr_array(_mask(a2, da)), sp.eye_array(p, dtype=bool), format="csr")
        parts.append(pd.combine_rows(ka, db.rows))
    if da is not None:
        kb = sp.kron(sp.eye_array(m, dtype=bool), sp.csr_array(_mask(b2, db).T), format="csr")
        parts.append(pd.combine_rows(kb, da.rows))
    rows = pd.union(*parts)
    if rows.shape[0] != pd.size_of(ans):
        return None
    terms = ()
    if da is not None and db is not None and pd.merged_hess(inputs) is not None:
        by_column = pd.group_rows(da.rows, np.broadcast_to(np.arange(k), (m, k)), k)
        by_row = pd.group_rows(db.rows, np.broadcast_to(np.arange(k)[:, None], (k, p)), k)
        terms = [Term(by_column, by_row)]
    return pd.made(rows, inputs, terms)


def _product(first, second):
    def rule(ans, values, deps):
        a, b = values[first], values[second]
        da, db = deps.get(first), deps.get(second)
        if da is None and db is None:
            return None
        if np.ndim(a) == 0 or np.ndim(b) == 0:   # np.dot with a number: elementwise
            return _scaled(ans, a, b, da, db)
        found = matrix_product(ans, a, b, da, db)
        if found is None:
            return dense(ans, deps, f"a product of arrays of {np.ndim(a)} and {np.ndim(b)} "
                                    f"dimensions at {pd.user_location()} has no pattern "
                                    "rule: dense")
        return found
    return rule


def _scaled(ans, a, b, da, db):
    shape = np.shape(ans)
    rows = [pd.broadcast_rows(d.rows, np.shape(v), shape)
            for v, d in ((a, da), (b, db)) if d is not None]
    inputs = [d for d in (da, db) if d is not None]
    terms = [Term(rows[0], rows[1])] if len(rows) == 2 and \
        pd.merged_hess(inputs) is not None else ()
    return pd.made(pd.union(*rows), inputs, terms)


def _outer(ans, values, deps):
    a, b = np.ravel(values["a"]), np.ravel(values["b"])
    return matrix_product(ans, a.reshape(-1, 1), b.reshape(1, -1), deps.get("a"),
                          deps.get("b"))


def _inner_1d(ans, values, deps):
    a, b = values["a"], values["b"]
    if np.ndim(a) == 1 and np.ndim(b) == 1:
        return matrix_product(ans, a, b, deps.get("a"), deps.get("b"))
    return dense(ans, deps, f"np.inner/np.vdot of arrays of more than one dimension at "
                            f"{pd.user_location()} has no pattern rule: dense")


TABLE["numpy.matmul"] = _product("x1", "x2")
TABLE["numpy.dot"] = _product("a", "b")
TABLE["numpy.outer"] = _outer
TABLE["numpy.inner"] = _inner_1d
