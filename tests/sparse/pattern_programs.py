"""Programs whose sparsity patterns tests/sparse/test_pattern.py checks: each with the
arguments it is called at, which of them to differentiate, the scope its pattern should
have, and, where known independently, the exact pattern (built with NumPy here, never by
srcgrad)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
import scipy.special


@dataclasses.dataclass
class Case:
    name: str
    f: Callable
    wrt: tuple
    make: Callable            # rng -> args
    scope: str = "global"
    exact: Callable | None = None   # args -> the exact boolean pattern
    tight: bool = False       # equal to the union of the true nonzeros over the points
    dense_oracle: bool = True   # srcgrad's dense Jacobian computes it too


def _rand(*shape):
    return lambda rng: (rng.uniform(0.2, 1.5, shape),)


def _eye(args):
    return np.eye(np.size(args[0]), dtype=bool)


# -- first order ----------------------------------------------------------------------
def sin_times_x(x):
    return np.sin(x) * x + np.exp(x) / 3.0 - x ** 2


def broadcast_outer(x, y):
    return x[:, None] * y[None, :] + np.tanh(x)[:, None]


def _outer_exact(args):
    m, p = np.size(args[0]), np.size(args[1])
    out = np.zeros((m * p, m + p), dtype=bool)
    for i in range(m):
        for j in range(p):
            out[i * p + j, [i, m + j]] = True
    return out


def zero_d_and_size_one(x, y):
    return x * y + np.sin(x) + y[:1]


def _zero_d_exact(args):
    p = np.size(args[1])
    out = np.zeros((p, 1 + p), dtype=bool)
    out[:, 0] = True
    out[np.arange(p), 1 + np.arange(p)] = True
    out[:, 1] = True
    return out


def reductions(x):
    return np.concatenate([x.sum(axis=0), np.mean(x, axis=1), [np.max(x)],
                           np.prod(x, axis=1), np.cumsum(x, axis=1).ravel(),
                           [np.linalg.norm(x[0])]])


def _reductions_exact(args):
    rows, cols = args[0].shape
    ids = np.arange(rows * cols).reshape(rows, cols)
    groups = [list(ids[:, j]) for j in range(cols)] + [list(ids[i]) for i in range(rows)]
    groups += [list(ids.ravel())] + [list(ids[i]) for i in range(rows)]
    groups += [list(ids[i, :k + 1]) for i in range(rows) for k in range(cols)]
    groups += [list(ids[0])]
    out = np.zeros((len(groups), rows * cols), dtype=bool)
    for r, g in enumerate(groups):
        out[r, g] = True
    return out


_MASK = np.array([True, False, True, True, False, False])


def slicing_indexing(x):
    return np.concatenate([x[::2] * x[1::2], x[[0, 3, 3]], x[_MASK] ** 2, x[-1:]])


def _slicing_exact(args):
    n = np.size(args[0])
    groups = [[i, i + 1] for i in range(0, n, 2)] + [[0], [3], [3]]
    groups += [[i] for i in np.flatnonzero(_MASK)] + [[n - 1]]
    return _from_groups(groups, n)


def _from_groups(groups, n):
    out = np.zeros((len(groups), n), dtype=bool)
    for r, g in enumerate(groups):
        out[r, g] = True
    return out


def concat_stack(x, y):
    a = np.stack([x, 2.0 * y])
    b = np.hstack([x[:2], y])
    c = np.vstack([x, y]).T
    return np.concatenate([a.ravel(), b, c.ravel()])


def reshape_transpose(x):
    y = x.reshape(3, 4).T
    z = np.swapaxes(x.reshape(2, 3, 2), 0, 2)
    return np.concatenate([y.ravel() * 2.0, z.ravel(), np.ravel(x.reshape(4, 3)[::-1])])


def _reshape_exact(args):
    ids = np.arange(12)
    order = np.concatenate([ids.reshape(3, 4).T.ravel(),
                            np.swapaxes(ids.reshape(2, 3, 2), 0, 2).ravel(),
                            ids.reshape(4, 3)[::-1].ravel()])
    return np.eye(12, dtype=bool)[order]


_BAND = np.diag(np.full(6, 2.0)) + np.diag(np.ones(5), 1) - np.diag(np.ones(5), -1)
_WIDE = np.arange(1.0, 19.0).reshape(3, 6)


def matmul_constant(x):
    return np.concatenate([_BAND @ x, np.dot(_WIDE, x ** 2), x @ _BAND])


def _matmul_exact(args):
    return np.vstack([_BAND != 0, _WIDE != 0, _BAND.T != 0])


def loops(x):
    y = x.copy()
    for _ in range(2):
        y = y + np.roll(y, 1)
    total = 0.0
    for i in range(x.shape[0]):
        total = total + x[i] * y[i]
    return np.append(y, total)


def _loops_exact(args):
    n = np.size(args[0])
    step = np.eye(n, dtype=int) + np.roll(np.eye(n, dtype=int), 1, axis=0)
    y = (step @ step) != 0
    return np.vstack([y, y.any(axis=0, keepdims=True) | True])


def branch_on_a_value(x):
    if x[0] > 0.7:
        y = x * 2.0
    else:
        y = x[::-1] ** 2
    return y


def _stencil(u):
    return u[2:] - 2.0 * u[1:-1] + u[:-2]


def user_calls(x):
    return _stencil(x) * 0.5 + _stencil(np.sin(x))


def _stencil_exact(args):
    n = np.size(args[0])
    out = np.zeros((n - 2, n), dtype=bool)
    for i in range(n - 2):
        out[i, i:i + 3] = True
    return out


def lists(x):
    n = x.shape[0]
    items = []
    for i in range(n):
        items.append(x[i] * x[(i + 1) % n])
    return np.stack(items)


def _lists_exact(args):
    n = np.size(args[0])
    return _from_groups([[i, (i + 1) % n] for i in range(n)], n)


def roll_flip_pad(x):
    return np.roll(x, 2) + np.flip(x) * np.pad(x, 1)[1:-1] + np.diff(np.sin(x), prepend=0.0)


def _roll_flip_pad_exact(args):
    n = np.size(args[0])
    return _from_groups([[(i - 2) % n, n - 1 - i, i] + ([i - 1] if i else [])
                         for i in range(n)], n)


def stencil_writes(u):
    r = np.zeros_like(u)
    r[1:-1] = u[2:] - 2 * u[1:-1] + u[:-2]
    r[0] = u[0]
    r[-1] = u[-1] ** 2
    for i in range(1, u.shape[0] - 1):
        r[i] = r[i] + u[i] ** 3
    return r


def _stencil_writes_exact(args):
    n = np.size(args[0])
    return _from_groups([[0]] + [[i - 1, i, i + 1] for i in range(1, n - 1)] + [[n - 1]], n)


def brusselator(y, a=1.0, b=3.0, alpha=0.02):
    n = int(round(np.sqrt(y.size // 2)))
    u = y[:n * n].reshape(n, n)
    v = y[n * n:].reshape(n, n)
    up = np.pad(u, 1, mode="wrap")
    vp = np.pad(v, 1, mode="wrap")
    lap_u = up[:-2, 1:-1] + up[2:, 1:-1] + up[1:-1, :-2] + up[1:-1, 2:] - 4 * u
    lap_v = vp[:-2, 1:-1] + vp[2:, 1:-1] + vp[1:-1, :-2] + vp[1:-1, 2:] - 4 * v
    du = b + u * u * v - (a + 1) * u + alpha * lap_u
    dv = a * u - u * u * v + alpha * lap_v
    return np.concatenate([du.ravel(), dv.ravel()])


def brusselator_exact(args):
    """Each species couples to itself at its 5-point (periodic) stencil and to the other
    species at the same grid point."""
    n = int(round(np.sqrt(np.size(args[0]) // 2)))
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    cell = (i * n + j).ravel()
    rows, cols = [], []
    for species in (0, 1):
        base = species * n * n
        for di, dj in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            rows.append(base + cell)
            cols.append(base + (((i + di) % n) * n + (j + dj) % n).ravel())
        rows.append(base + cell)
        cols.append((1 - species) * n * n + cell)
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    size = 2 * n * n
    out = sp.csr_array((np.ones(rows.size, dtype=bool), (rows, cols)), shape=(size, size))
    out.sum_duplicates()
    return out


def tuple_output(x):
    return x ** 2, np.sum(x)


def where_clip(x):
    return np.where(x > 0.8, x, 0.1 * x) + np.clip(x, 0.5, 1.0) * (x > 0.3)


def scalar_wrt(x, s):
    return x * s + s ** 2


def _scalar_exact(args):
    n = np.size(args[0])
    out = np.zeros((n, n + 1), dtype=bool)
    out[np.arange(n), np.arange(n)] = True
    out[:, n] = True
    return out


_LAPLACIAN = sp.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(6, 6), format="csr")


def sparse_constant(u):
    return _LAPLACIAN @ u + u ** 3


_KERNEL = np.array([1.0, 0.0, 2.0])
_W = np.arange(12.0).reshape(2, 3, 2) * (np.arange(12).reshape(2, 3, 2) % 3 != 0)


def multilinear(x):
    stacked = x.reshape(2, 2, 3)
    return np.concatenate([np.einsum("ij,j->i", _BAND[:4, :4], x[:4]), (stacked @ _W).ravel(),
                           np.tensordot(stacked, _W, axes=([2], [1])).ravel(),
                           np.einsum("i,i->", x, x)[None], np.einsum("ii->i", x[:9].reshape(3, 3)),
                           np.convolve(x, _KERNEL, mode="same"), np.outer(x[:2], x[2:4]).ravel()])


def lanes(x):
    grid = x.reshape(3, 4)
    return np.concatenate([np.gradient(x, 0.5), np.concatenate(np.gradient(grid)).ravel(),
                           sum([x, x ** 2]), sum(grid)])


def sorts(x):
    return np.concatenate([np.sort(x.reshape(3, 4), axis=1).ravel(), np.partition(x, 2)])


def _sorts_exact(args):
    """An element may land anywhere in its lane."""
    rows = [list(range(4 * (i // 4), 4 * (i // 4) + 4)) for i in range(12)]
    return _from_groups(rows + [list(range(12))] * 12, 12)


def sorted_gather(x):
    order = np.argsort(x)
    return x[order] * 2.0


def counted_shape(x):
    n = int(x[0] * 2.0) + 1
    return np.concatenate([x, np.zeros(n)]) * x[1]


def tainted_matrix_entry(x, v):
    k = float(np.argmax(x))
    m = np.array([[x[0], k], [0.0, x[1]]])
    return m @ v


def matrix_from_parameters(x):
    m = np.zeros((3, 3))
    m[0, 0] = x[0]
    m[1, 2] = x[1]
    m[2, 1] = x[2] ** 2
    return m @ np.array([1.0, 2.0, 0.0]) + x


def _from_parameters_exact(args):
    out = np.eye(3, dtype=bool)
    out[0, 0] = True
    out[2, 2] = True   # m[2, 1] * 2.0; m[1, 2] meets the constant zero
    return out


def _levels(k, x):
    if k == 0:   # a branch on a count that is not computed from the inputs
        return x
    return _levels(k - 1, np.roll(x, 1) * x)


def recursion(x):
    return _levels(2, x)


def _recursion_exact(args):
    n = np.size(args[0])
    return _from_groups([[(i - d) % n for d in range(3)] for i in range(n)], n)


def handled(x):
    try:
        y = np.sqrt(x - 0.5) if False else x[:3] * 2.0
    except ValueError:
        y = x[1:4]
    return y


def casts_fills_selections(x):
    grid = x.reshape(2, 3)
    items = list(x[:3])
    return np.concatenate([
        np.float64(x[0]) * x[:2], np.full(2, x[1]), np.full_like(x[:2], x[2]),
        np.select([x > 0.8, x <= 0.8], [x, x ** 2]), scipy.special.softmax(grid, axis=1).ravel(),
        np.atleast_1d(scipy.special.logsumexp(grid, axis=0)), np.atleast_1d(np.trapezoid(x)),
        np.kron(x[:2], x[4:]), np.atleast_1d(np.vdot(x[:3], x[3:])), np.array(items[::-1]),
        np.asanyarray(tuple(x[3:])) * 2.0])


def _pair(rng):
    return rng.uniform(0.2, 1.5, 4), rng.uniform(0.2, 1.5, 3)


JACOBIAN_CASES = [
    Case("sin_times_x", sin_times_x, (0,), _rand(5), exact=_eye),
    Case("broadcast_outer", broadcast_outer, (0, 1), _pair, exact=_outer_exact),
    Case("zero_d_and_size_one", zero_d_and_size_one, (0, 1),
         lambda rng: (np.array(rng.uniform(0.2, 1.5)), rng.uniform(0.2, 1.5, 3)),
         exact=_zero_d_exact),
    Case("reductions", reductions, (0,), _rand(3, 4), exact=_reductions_exact),
    Case("slicing_indexing", slicing_indexing, (0,), _rand(6), exact=_slicing_exact),
    Case("concat_stack", concat_stack, (0, 1),
         lambda rng: (rng.uniform(0.2, 1.5, 3), rng.uniform(0.2, 1.5, 3))),
    Case("reshape_transpose", reshape_transpose, (0,), _rand(12), exact=_reshape_exact),
    Case("matmul_constant", matmul_constant, (0,), _rand(6), exact=_matmul_exact),
    Case("loops", loops, (0,), _rand(5), exact=_loops_exact),
    Case("branch_on_a_value", branch_on_a_value, (0,), _rand(4), scope="local"),
    Case("user_calls", user_calls, (0,), _rand(7), exact=_stencil_exact),
    Case("lists", lists, (0,), _rand(5), exact=_lists_exact),
    Case("roll_flip_pad", roll_flip_pad, (0,), _rand(6), exact=_roll_flip_pad_exact),
    Case("stencil_writes", stencil_writes, (0,), _rand(8), exact=_stencil_writes_exact),
    Case("brusselator", brusselator, (0,), _rand(2 * 5 * 5), exact=brusselator_exact),
    Case("tuple_output", tuple_output, (0,), _rand(4),
         exact=lambda args: np.vstack([np.eye(4, dtype=bool), np.ones((1, 4), dtype=bool)])),
    Case("where_clip", where_clip, (0,), _rand(5), exact=_eye),
    Case("scalar_wrt", scalar_wrt, (0, 1), lambda rng: (rng.uniform(0.2, 1.5, 4),
                                                          float(rng.uniform(0.5, 1.5))),
         exact=_scalar_exact),
    Case("sparse_constant", sparse_constant, (0,), _rand(6), dense_oracle=False,
         exact=lambda args: (_LAPLACIAN != 0).toarray() | np.eye(6, dtype=bool)),
    Case("multilinear", multilinear, (0,), _rand(12), tight=True),
    Case("lanes", lanes, (0,), _rand(12), tight=True),
    Case("sorts", sorts, (0,), _rand(12), exact=_sorts_exact),
    Case("sorted_gather", sorted_gather, (0,), _rand(5), scope="local"),
    Case("counted_shape", counted_shape, (0,), _rand(4), scope="local"),
    Case("tainted_matrix_entry", tainted_matrix_entry, (0, 1),
         lambda rng: (rng.uniform(0.2, 1.5, 2), rng.uniform(0.2, 1.5, 2)), scope="local"),
    Case("recursion", recursion, (0,), _rand(5), exact=_recursion_exact),
    Case("handled", handled, (0,), _rand(5), scope="local",
         exact=lambda args: np.eye(5, dtype=bool)[:3]),
    Case("casts_fills_selections", casts_fills_selections, (0,), _rand(6), tight=True),
    Case("matrix_from_parameters", matrix_from_parameters, (0,), _rand(3),
         exact=_from_parameters_exact),
]
