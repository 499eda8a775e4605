"""Colourings on generated sparse patterns (random, banded, grid stencils, with empty and
full rows and columns), checked against their definitions: columns (rows) sharing a row
(column) differ; a star colouring is a distance-1 colouring with no two-coloured path on
four vertices. The compressed products ``J @ S`` / ``H @ S`` decompress to exactly the
matrix. networkx builds the graphs the checks walk (an implementation of its own)."""

import itertools

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from srcgrad.sparse import colouring, compressed


def random_pattern(rng, m, n, density):
    p = sp.random_array((m, n), density=density, rng=rng, format="csr") != 0
    return sp.csr_array(p)


def grid_stencil(n, species=1):
    """A periodic 5-point stencil on an n x n grid, species coupled at each point."""
    e = sp.eye_array(n)
    s = sp.eye_array(n, k=1) + sp.eye_array(n, k=-1) + sp.eye_array(n, k=n - 1) \
        + sp.eye_array(n, k=1 - n)
    lap = sp.kron(s, e) + sp.kron(e, s) + sp.kron(e, e)
    ones = sp.csr_array(np.ones((species, species)))
    return sp.csr_array((sp.kron(sp.eye_array(species), lap)
                         + sp.kron(ones, sp.eye_array(n * n))) != 0)


def patterns():
    rng = np.random.default_rng(7)
    for m, n, density in [(1, 1, 1.0), (5, 1, 0.5), (1, 6, 0.5), (8, 8, 0.0), (20, 30, 0.1),
                          (40, 25, 0.05), (60, 60, 0.03), (15, 15, 0.6)]:
        yield f"random{m}x{n}@{density}", random_pattern(rng, m, n, density)
    yield "band", sp.csr_array(sp.diags_array([1, 1, 1, 1, 1], offsets=[-2, -1, 0, 1, 2],
                                              shape=(30, 30), dtype=bool))
    full = np.zeros((12, 10), bool)
    full[3] = True        # a full row: every column a different colour
    full[:, 4] = True     # a full column
    yield "full row and column", sp.csr_array(full)
    yield "grid", grid_stencil(6, 2)
    yield "arrow", sp.csr_array(np.eye(9, dtype=bool) | (np.arange(9) == 0)[None, :])


PATTERNS = list(patterns())


def symmetric(p):
    n = max(p.shape)
    square = np.zeros((n, n), bool)
    square[:p.shape[0], :p.shape[1]] = p.toarray()
    return sp.csr_array(square | square.T)


def column_graph(p):
    """networkx: columns adjacent when they share a row."""
    graph = nx.Graph()
    graph.add_nodes_from(range(p.shape[1]))
    for row in sp.csr_array(p).tolil().rows:
        graph.add_edges_from(itertools.combinations(row, 2))
    return graph


@pytest.mark.parametrize("name,p", PATTERNS, ids=[n for n, _ in PATTERNS])
def test_column_and_row_colourings_are_structurally_orthogonal(name, p):
    for transpose in (False, True):
        q = sp.csr_array(p.T) if transpose else p
        colours = colouring.row_colouring(q.T) if transpose else colouring.column_colouring(q)
        graph = column_graph(q)
        assert colours.shape == (q.shape[1],) and colours.min(initial=0) >= 0
        for a, b in graph.edges:
            assert colours[a] != colours[b], (name, a, b)
        degree = max((d for _, d in graph.degree), default=0)
        assert len(set(colours.tolist())) <= degree + 1
        # as few as the row with most nonzeros forces, no more than greedy's bound
        widest = int(np.diff(sp.csr_array(q).indptr).max(initial=0))
        assert colours.max(initial=-1) + 1 >= widest


@pytest.mark.parametrize("name,p", PATTERNS, ids=[n for n, _ in PATTERNS])
def test_jacobian_decompression_is_exact(name, p):
    rng = np.random.default_rng(3)
    for kinds in [("columns",), ("rows",), ("columns", "rows")]:
        c = compressed.jacobian_compression(p, kinds)
        assert c.kind in kinds
        j = sp.csr_array(p, dtype=float)
        j.data = rng.standard_normal(j.nnz)
        seeds = c.seeds()
        product = j @ seeds if c.kind == "columns" else (j.T @ seeds).T
        got = c.decompress(product)
        assert got.shape == p.shape
        assert np.array_equal(got.toarray(), j.toarray()), (name, kinds)
        assert c.check_probe(got, product).size == 0
        # a nonzero the pattern misses is caught by the probe
        if p.nnz < p.shape[0] * p.shape[1]:
            i, k = np.argwhere(~p.toarray())[0]
            dense = j.toarray()
            dense[i, k] = 1.0
            product = dense @ seeds if c.kind == "columns" else (dense.T @ seeds).T
            assert c.check_probe(c.decompress(product), product).size > 0


def two_coloured_paths(graph, colours):
    for a in graph:
        for b in graph[a]:
            for c in graph[b]:
                if c == a:
                    continue
                for d in graph[c]:
                    if d in (a, b):
                        continue
                    if len({colours[a], colours[b], colours[c], colours[d]}) < 3:
                        yield (a, b, c, d)


@pytest.mark.parametrize("name,p", PATTERNS, ids=[n for n, _ in PATTERNS])
def test_star_colouring_and_its_decompression(name, p):
    h_pattern = symmetric(p)
    colours = colouring.star_colouring(h_pattern)
    graph = nx.from_scipy_sparse_array(h_pattern)
    graph.remove_edges_from(nx.selfloop_edges(graph))
    for a, b in graph.edges:
        assert colours[a] != colours[b]
    assert next(two_coloured_paths(graph, colours), None) is None
    c = compressed.hessian_compression(h_pattern)
    rng = np.random.default_rng(5)
    h = sp.csr_array(h_pattern, dtype=float)
    h.data = rng.standard_normal(h.nnz)
    h = sp.csr_array(h + h.T)
    product = h @ c.seeds()
    assert np.array_equal(c.decompress(product).toarray(), h.toarray()), name
    assert c.check_probe(c.decompress(product), product).size == 0


def test_star_needs_fewer_colours_than_distance_2_on_a_grid():
    p = grid_stencil(10)
    star = colouring.star_colouring(p).max() + 1
    distance2 = colouring.column_colouring(p).max() + 1
    assert star < distance2


def test_a_colouring_that_is_not_a_star_colouring_is_refused():
    path = sp.csr_array(sp.diags_array([1, 1, 1], offsets=[-1, 0, 1], shape=(4, 4),
                                       dtype=bool))
    with pytest.raises(AssertionError, match="star"):
        compressed.star_gather(compressed._structure(path), np.array([0, 1, 0, 1]), 2)
    with pytest.raises(AssertionError, match="distance-1"):
        compressed.star_gather(compressed._structure(path), np.array([0, 0, 1, 1]), 2)


def test_star_colouring_refuses_a_non_symmetric_pattern():
    with pytest.raises(ValueError, match="symmetric"):
        colouring.star_colouring(sp.csr_array(np.triu(np.ones((3, 3), bool))))
