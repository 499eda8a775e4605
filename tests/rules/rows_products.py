"""Test rows for products: dot, matmul, tensordot, einsum, kron, cross..."""

import numpy as np

from tests.rules.harness import normal, row, scalar

ROWS = [
    row("numpy.dot", lambda a, b: np.dot(a, b), normal(2, 3), normal(3, 4)),
    row("numpy.dot", lambda a, b: np.dot(a, b), normal(3), normal(3), note="vectors"),
    row("numpy.dot", lambda a, b: np.dot(a, b), normal(2, 2, 3), normal(4, 3, 2), note="3-d"),
    row("numpy.dot", lambda a, b: a.dot(b), normal(2, 3), normal(3), note="method"),
    row("numpy.matmul", lambda a, b: a @ b, normal(2, 3), normal(3, 2)),
    row("numpy.matmul", lambda a, b: np.matmul(a, b), normal(4, 2, 3), normal(3, 2),
        note="batched"),
    row("numpy.matmul", lambda a, b: np.matmul(a, b), normal(3), normal(2, 3, 2), note="1-d"),
    row("numpy.outer", lambda a, b: np.outer(a, b), normal(3), normal(2, 2)),
    row("numpy.inner", lambda a, b: np.inner(a, b), normal(2, 3), normal(4, 3)),
    row("numpy.vdot", lambda a, b: np.vdot(a, b), normal(2, 3), normal(6)),
    row("numpy.tensordot", lambda a, b: np.tensordot(a, b), normal(2, 3, 4), normal(3, 4, 2)),
    row("numpy.tensordot", lambda a, b: np.tensordot(a, b, axes=([0, 2], [2, 0])),
        normal(2, 3, 4), normal(4, 5, 2), note="axes pairs"),
    row("numpy.tensordot", lambda a, b: np.tensordot(a, b, 0), normal(2), normal(3),
        note="outer"),
    row("numpy.einsum", lambda a, b: np.einsum("ij,jk->ik", a, b), normal(2, 3), normal(3, 4)),
    row("numpy.einsum", lambda a: np.einsum("ii", a), normal(3, 3), note="trace"),
    row("numpy.einsum", lambda a: np.einsum("ii->i", a), normal(3, 3), note="diagonal"),
    row("numpy.einsum", lambda a, b: np.einsum("...ij,...jk", a, b), normal(2, 2, 3),
        normal(3, 2), note="ellipsis, implicit"),
    row("numpy.einsum", lambda a, b, c: np.einsum("i,ij,jk->k", a, b, c), normal(2),
        normal(2, 3), normal(3, 2), note="three operands"),
    row("numpy.einsum", lambda a, b: np.einsum("ij,k->i", a, b), normal(2, 3), normal(4),
        note="summed-out index"),
    row("numpy.einsum", lambda a, b: np.einsum("...i,...i->...", a, b), normal(1, 3),
        normal(4, 3), note="broadcast ellipsis"),
    row("numpy.einsum", lambda a, b: np.einsum(a, [0, 1], b, [1, 2], [0, 2]), normal(2, 3),
        normal(3, 2), note="sublists"),
    row("numpy.kron", lambda a, b: np.kron(a, b), normal(2, 3), normal(3, 2)),
    row("numpy.kron", lambda a, b: np.kron(a, b), normal(2), normal(2, 3), note="1-d, 2-d"),
    row("numpy.cross", lambda a, b: np.cross(a, b), normal(4, 3), normal(3)),
    row("numpy.cross", lambda a, b: np.cross(a, b, axisa=0, axisb=0), normal(3, 2),
        normal(3, 2), note="axes"),
    row("numpy.multiply", lambda a, s: np.multiply(a, s), normal(3), scalar(), note="float"),
]
