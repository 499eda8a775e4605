"""Graph colourings that compress a sparse Jacobian or Hessian into a few columns.

A colouring groups the columns (or rows) so that one derivative sweep per group — or one
batched sweep with a tangent column per group — gives every nonzero:

- ``column_colouring(P)``: a distance-2 colouring of ``P``'s columns in the bipartite
  graph of rows and columns, i.e. no two columns with a nonzero in the same row share a
  colour (they are *structurally orthogonal*). ``J @ S`` (``S[j, colour[j]] = 1``) then
  holds ``J[i, j]`` alone at ``[i, colour[j]]``.
- ``row_colouring(P)``: the same for rows (``S.T @ J``, reverse mode).
- ``star_colouring(P)`` for a symmetric pattern (a Hessian's): a distance-1 colouring
  in which every path on four vertices has at least three colours (Gebremedhin, Manne
  and Pothen, "What color is your Jacobian? Graph coloring for computing derivatives",
  SIAM Review 47(4), 2005, Algorithm 4.1). For each off-diagonal nonzero ``H[i, j]``,
  ``j`` is the only neighbour of ``i`` with ``j``'s colour, or ``i`` the only neighbour
  of ``j`` with ``i``'s colour, so ``H[i, j]`` is read directly from ``H @ S``
  (``compressed.star_indices``). It needs fewer colours than a distance-2 colouring.

Vertices are taken in smallest-last order (Matula and Beck 1983), largest-first (by
degree, ties by index) and in their natural order; the colouring with fewer colours is
kept (smallest-last finds the 10 colours a 5-point stencil with two coupled species
needs, where the others take 12). The greedy loops run over Python lists: one step per
edge visited.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

# Above this many edges visited, only the smallest-last order is tried.
_SECOND_ORDER_LIMIT = 1_000_000


def column_colouring(pattern) -> np.ndarray:
    """Colours (0, 1, ...) of ``pattern``'s columns such that no two columns with a
    nonzero in a common row share one; an int array of length ``pattern.shape[1]``."""
    p = sp.csc_array(pattern, dtype=bool)
    p.eliminate_zeros()
    graph = sp.csr_array(p.T.astype(np.int64) @ p.astype(np.int64), dtype=bool)
    return greedy_colouring(graph)


def row_colouring(pattern) -> np.ndarray:
    """Colours of ``pattern``'s rows such that no two rows with a nonzero in a common
    column share one (``column_colouring`` of the transpose)."""
    return column_colouring(sp.csr_array(pattern).T)


def greedy_colouring(graph) -> np.ndarray:
    """A distance-1 colouring of the graph whose adjacency is ``graph`` (square, bool,
    symmetric; the diagonal ignored): each vertex, in turn, takes the smallest colour
    none of its coloured neighbours has."""
    neighbours = _adjacency(graph)
    best = None
    for order in _orders(neighbours):
        colours = _greedy(neighbours, order)
        if best is None or colours.max(initial=-1) < best.max(initial=-1):
            best = colours
    assert best is not None
    return best


def star_colouring(pattern) -> np.ndarray:
    """A star colouring of the symmetric ``pattern`` (square; the diagonal ignored):
    adjacent vertices differ, and no path on four vertices has only two colours."""
    p = sp.csr_array(pattern, dtype=bool)
    if p.shape[0] != p.shape[1]:
        raise ValueError(f"a star colouring needs a square pattern, not {p.shape}")
    if (p != p.T).nnz:
        raise ValueError("a star colouring needs a symmetric pattern")
    neighbours = _adjacency(p)
    best = None
    for order in _orders(neighbours, star=True):
        colours = _star(neighbours, order)
        if best is None or colours.max(initial=-1) < best.max(initial=-1):
            best = colours
    assert best is not None
    return best


def _adjacency(graph):
    """Each vertex's neighbours (itself left out), as Python lists."""
    g = sp.csr_array(graph, dtype=bool)
    g.eliminate_zeros()
    indptr, indices = g.indptr.tolist(), g.indices.tolist()
    return [[w for w in indices[indptr[v]:indptr[v + 1]] if w != v]
            for v in range(g.shape[0])]


def _orders(neighbours, star=False):
    yield _smallest_last(neighbours)
    degrees = np.array([len(n) for n in neighbours], dtype=np.int64)
    work = int(np.sum(degrees ** 3 if star else degrees))
    if work <= _SECOND_ORDER_LIMIT:
        yield np.argsort(-degrees, kind="stable").tolist()   # largest first
        yield list(range(len(neighbours)))


def _smallest_last(neighbours):
    """Matula and Beck's smallest-last order: repeatedly take out a vertex of least
    degree among those left; colour them in the reverse order (a vertex then has at
    most as many coloured neighbours as the graph's degeneracy)."""
    degree = [len(n) for n in neighbours]
    buckets = [set() for _ in range(max(degree, default=0) + 1)]
    for v, d in enumerate(degree):
        buckets[d].add(v)
    removed = [False] * len(neighbours)
    order, low = [], 0
    for _ in range(len(neighbours)):
        while not buckets[low]:
            low += 1
        v = buckets[low].pop()
        removed[v] = True
        order.append(v)
        for w in neighbours[v]:
            if not removed[w]:
                buckets[degree[w]].discard(w)
                degree[w] -= 1
                buckets[degree[w]].add(w)
                low = min(low, degree[w])
    order.reverse()
    return order


def _greedy(neighbours, order):
    colour = [-1] * len(neighbours)
    forbidden = [-1] * (len(neighbours) + 1)   # forbidden[c] == v: c is taken near v
    for v in order:
        for w in neighbours[v]:
            c = colour[w]
            if c >= 0:
                forbidden[c] = v
        c = 0
        while forbidden[c] == v:
            c += 1
        colour[v] = c
    return np.array(colour, dtype=np.int64)


def _star(neighbours, order):
    """Algorithm 4.1 of Gebremedhin, Manne and Pothen (2005), greedy star colouring."""
    colour = [-1] * len(neighbours)
    forbidden = [-1] * (len(neighbours) + 1)
    for v in order:
        for w in neighbours[v]:
            cw = colour[w]
            if cw >= 0:
                forbidden[cw] = v
            for x in neighbours[w]:
                cx = colour[x]
                if x == v or cx < 0:
                    continue
                if cw < 0:
                    # w is not coloured yet: v and x would be two ends of a path
                    # through w that w's colour could still make two-coloured
                    forbidden[cx] = v
                elif any(colour[y] == cw for y in neighbours[x] if y != w):
                    # x has another neighbour coloured like w: v - w - x - y would
                    # take two colours if v took x's
                    forbidden[cx] = v
        c = 0
        while forbidden[c] == v:
            c += 1
        colour[v] = c
    return np.array(colour, dtype=np.int64)
