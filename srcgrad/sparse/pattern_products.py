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
from srcgrad.sparse.pattern_einsum import batched_matmul, einsum_pattern
from srcgrad.sparse.pattern_rules import TABLE, dense


def _mask(value, deps):
    """The elements of ``value`` that may be nonzero, as a sparse 0/1 matrix shaped like
    it (``value``: a 2-D array, or a SciPy sparse matrix, which carries nothing)."""
    if sp.issparse(value):
        return sp.csr_array(value != 0, dtype=bool)
    mask = np.asarray(value) != 0
    if deps is not None:
        mask = mask | (np.diff(deps.rows.indptr) > 0).reshape(mask.shape)
    return sp.csr_array(mask)


def _as_2d(value, column):
    """A 2-D view of a product's operand (a vector as a row or, for ``column``, a
    column), or None for more than two dimensions."""
    if sp.issparse(value):
        return value if value.ndim == 2 else None
    if np.ndim(value) == 1:
        return np.reshape(value, (-1, 1) if column else (1, -1))
    return np.asarray(value) if np.ndim(value) == 2 else None


def matrix_product(ans, a, b, da, db):
    """The ``Deps`` of ``ans = a @ b`` for operands of one or two dimensions (else
    ``UNCOVERED``)."""
    a2, b2 = _as_2d(a, column=False), _as_2d(b, column=True)
    if a2 is None or b2 is None or a2.shape[1] != b2.shape[0]:
        return pd.UNCOVERED
    (m, k), p = a2.shape, b2.shape[1]
    inputs = [d for d in (da, db) if d is not None]
    parts = []
    if db is not None:
        ka = sp.kron(_mask(a2, da), sp.eye_array(p, dtype=bool), format="csr")
        parts.append(pd.combine_rows(ka, db.rows))
    if da is not None:
        kb = sp.kron(sp.eye_array(m, dtype=bool), _mask(b2, db).T, format="csr")
        parts.append(pd.combine_rows(kb, da.rows))
    rows = pd.union(*parts)
    if rows.shape[0] != pd.size_of(ans):
        return pd.UNCOVERED
    terms = ()
    if da is not None and db is not None and pd.merged_hess(inputs) is not None:
        by_column = pd.group_rows(da.rows, np.broadcast_to(np.arange(k), (m, k)), k)
        by_row = pd.group_rows(db.rows, np.broadcast_to(np.arange(k)[:, None], (k, p)), k)
        terms = [Term(by_column, by_row)]
    return pd.made(rows, inputs, terms)


def _product(first, second, batched):
    def rule(ans, values, deps):
        a, b = values[first], values[second]
        da, db = deps.get(first), deps.get(second)
        if da is None and db is None:
            return None
        if np.ndim(a) == 0 or np.ndim(b) == 0:   # np.dot with a number: elementwise
            return _scaled(ans, a, b, da, db)
        found = matrix_product(ans, a, b, da, db)
        if found is pd.UNCOVERED and batched and not (sp.issparse(a) or sp.issparse(b)):
            found = batched_matmul(ans, a, b, da, db)
        if found is pd.UNCOVERED:
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


def _or_dense(found, ans, deps, what):
    if found is pd.UNCOVERED:
        return dense(ans, deps, f"{what} at {pd.user_location()}: dense")
    return found


def _outer(ans, values, deps):
    a, b = np.ravel(values["a"]), np.ravel(values["b"])
    return _or_dense(matrix_product(ans, a.reshape(-1, 1), b.reshape(1, -1), deps.get("a"),
                                    deps.get("b")), ans, deps, "np.outer")


def _inner_1d(ans, values, deps):
    a, b = values["a"], values["b"]
    if np.ndim(a) == 1 and np.ndim(b) == 1:
        return _or_dense(matrix_product(ans, a, b, deps.get("a"), deps.get("b")), ans, deps,
                         "np.inner")
    return dense(ans, deps, f"np.inner/np.vdot of arrays of more than one dimension at "
                            f"{pd.user_location()} has no pattern rule: dense")


def _tensordot(ans, values, deps):
    a, b, axes = values["a"], values["b"], values.get("axes", 2)
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    a_spec = [next(letters) for _ in range(np.ndim(a))]
    b_spec = [next(letters) for _ in range(np.ndim(b))]
    if isinstance(axes, int):
        pairs = list(zip(range(np.ndim(a) - axes, np.ndim(a)), range(axes)))
    else:
        pairs = list(zip(np.atleast_1d(axes[0]), np.atleast_1d(axes[1])))
    for i, j in pairs:
        b_spec[int(j)] = a_spec[int(i)]
    summed = {a_spec[int(i)] for i, _ in pairs}
    out = [c for c in a_spec if c not in summed] + [c for c in b_spec if c not in summed]
    found = einsum_pattern(ans, ["".join(a_spec), "".join(b_spec)], "".join(out), [a, b],
                           [deps.get("a"), deps.get("b")])
    if found is pd.UNCOVERED:
        return dense(ans, deps, f"np.tensordot at {pd.user_location()}: dense")
    return found


TABLE["numpy.matmul"] = _product("x1", "x2", batched=True)
TABLE["numpy.dot"] = _product("a", "b", batched=False)
TABLE["numpy.tensordot"] = _tensordot
TABLE["numpy.outer"] = _outer
TABLE["numpy.inner"] = _inner_1d
