"""The product forms the order matrix of ``test_product_orders`` checks: autograd's own
einsum, tensordot, dot, outer, inner, matmul and kron checks (every shape combination
they list), plus traces and diagonals. Each form is a plain function of its operands
(subscripts and axes written into it) and one shape per operand; ``R()`` is a 0-d array."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np


@dataclasses.dataclass(frozen=True)
class Form:
    name: str
    fn: object
    shapes: tuple

    def label(self):
        return f"{self.name} {list(self.shapes)}".replace(", ", ",")


def _einsum(spec):
    def two(a, b):
        return np.einsum(spec, a, b)

    def three(a, b, c):
        return np.einsum(spec, a, b, c)

    def one(a):
        return np.einsum(spec, a)
    return {1: one, 2: two, 3: three}[spec.split("->")[0].count(",") + 1]


def _sublists(*lists):
    """``np.einsum(a, lists[0], b, lists[1], ..., output)`` (the sublist form)."""
    n, out = len(lists) - 1, lists[-1]
    if n == 1:
        return lambda a: np.einsum(a, lists[0], out)
    if n == 2:
        return lambda a, b: np.einsum(a, lists[0], b, lists[1], out)
    return lambda a, b, c: np.einsum(a, lists[0], b, lists[1], c, lists[2], out)


def _tensordot(axes):
    return lambda a, b: np.tensordot(a, b, axes=axes)


def _combos(name, fn, *choices):
    return [Form(name, fn, shapes) for shapes in itertools.product(*choices)
            if _defined(fn, shapes)]


def _defined(fn, shapes):
    try:
        fn(*[np.ones(s) for s in shapes])
    except ValueError:
        return False
    return True


E = Ellipsis
EINSUM = [
    *_combos("einsum 'ij->ji'", _einsum("ij->ji"), [(1, 1), (4, 4), (3, 4)]),
    *_combos("einsum 'ij,jk->ik'", _einsum("ij,jk->ik"), [(2, 3)], [(3, 4)]),
    *_combos("einsum '...ij,...jk->...ik'", _einsum("...ij,...jk->...ik"),
             [(2, 3), (2, 2, 3)], [(3, 4), (2, 3, 4)]),
    *_combos("einsum '...ij,...jk->...ik' size 0", _einsum("...ij,...jk->...ik"),
             [(0, 2, 3)], [(0, 3, 4)]),
    *_combos("einsum 'ijk,lji->lki'", _einsum("ijk,lji->lki"), [(3, 4, 4)], [(4, 4, 3)]),
    *_combos("einsum '...jk,...lj->...lk'", _einsum("...jk,...lj->...lk"),
             [(4, 4), (3, 4, 4)], [(4, 4), (3, 4, 4)]),
    *_combos("einsum '...,...->...'", _einsum("...,...->..."), [(4, 4), (3, 4, 4)],
             [(4, 4), (3, 4, 4)]),
    *_combos("einsum 'jk...,lj...->lk...'", _einsum("jk...,lj...->lk..."),
             [(3, 2), (3, 2, 4)], [(2, 3), (2, 3, 4)]),
    *_combos("einsum 'j...k,lj...->lk...'", _einsum("j...k,lj...->lk..."),
             [(2, 2), (2, 2, 2)], [(2, 2), (2, 2, 2)]),
    *_combos("einsum 'ijk,lji,lli->lki'", _einsum("ijk,lji,lli->lki"), [(3, 4, 4)],
             [(4, 4, 3)], [(4, 4, 3)]),
    *_combos("einsum 'k,nk->'", _einsum("k,nk->"), [(5,)], [(10, 5)]),
    *_combos("einsum 'abcd->bd'", _einsum("abcd->bd"), [(3, 2, 3, 2)]),
    *_combos("einsum '...k,...nk->...'", _einsum("...k,...nk->..."), [(3, 5)], [(3, 10, 5)]),
    *_combos("einsum 'ij,k'", _einsum("ij,k"), [(3, 4)], [(3,)]),
    *_combos("einsum 'ii' (trace)", _einsum("ii"), [(3, 3)]),
    *_combos("einsum 'ii->i' (diagonal)", _einsum("ii->i"), [(3, 3)]),
    *_combos("einsum 'ii,i->i'", _einsum("ii,i->i"), [(3, 3)], [(3,), (1,)]),
    *_combos("einsum 'i,i->' broadcast", _einsum("i,i->"), [(1,)], [(4,)]),
    *_combos("einsum 'ij,ij->i' broadcast", _einsum("ij,ij->i"), [(1, 3), (2, 1)], [(2, 3)]),
    *_combos("einsum sublists transpose", _sublists((0, 1), (1, 0)),
             [(1, 1), (4, 4), (3, 4)]),
    *_combos("einsum sublists matmul", _sublists((0, 1), (1, 2), (0, 2)), [(2, 3)], [(3, 4)]),
    *_combos("einsum sublists broadcast", _sublists((E, 0, 1), (E, 1, 2), (E, 0, 2)),
             [(2, 3), (2, 2, 3)], [(3, 4), (2, 3, 4)]),
    *_combos("einsum sublists covsum", _sublists((0, 1, 2), (3, 1, 0), (3, 2, 0)),
             [(3, 4, 4)], [(4, 4, 3)]),
    *_combos("einsum sublists three", _sublists((0, 1, 2), (3, 1, 0), (3, 3, 0), (3, 2, 0)),
             [(3, 4, 4)], [(4, 4, 3)], [(4, 4, 3)]),
]

TENSORDOT = [
    *_combos("tensordot axes=[(1,),(0,)]", _tensordot([(1,), (0,)]), [(1, 3), (2, 3, 2)],
             [(3,), (3, 1), (3, 4, 2)]),
    *_combos("tensordot axes=[(0,),(1,)]", _tensordot([(0,), (1,)]),
             [(3,), (3, 1), (3, 4, 2)], [(1, 3), (2, 3, 2)]),
    *_combos("tensordot axes=[(0,1),(1,2)]", _tensordot([(0, 1), (1, 2)]), [(2, 3), (2, 3, 4)],
             [(1, 2, 3), (2, 2, 3, 4)]),
    *_combos("tensordot axes=[(1,0),(2,1)]", _tensordot([(1, 0), (2, 1)]), [(2, 3), (2, 3, 4)],
             [(1, 2, 3), (2, 2, 3, 4)]),
    *_combos("tensordot axes=1", _tensordot(1), [(2, 2), (4, 2, 2)], [(2, 2), (2, 2, 4)]),
    *_combos("tensordot axes=2", _tensordot(2), [(2, 2), (4, 2, 2)], [(2, 2), (2, 2, 4)]),
    *_combos("tensordot axes=0", _tensordot(0), [(4,)], [()]),
    *_combos("tensordot axes=[[-1],[0]]", _tensordot([[-1], [0]]), [(2, 6)], [(6, 3)]),
    *_combos("tensordot axes=[-1,0]", _tensordot([-1, 0]), [(2, 6)], [(6, 3)]),
    *_combos("tensordot axes=[0,1]", _tensordot([0, 1]), [(2,)], [(2, 2)]),
]

PRODUCTS = [
    *_combos("dot", lambda a, b: np.dot(a, b), [(), (3,), (2, 3), (2, 2, 3)],
             [(), (3,), (3, 4), (2, 3, 4)]),
    *_combos("outer", lambda a, b: np.outer(a, b), [(3,)], [(3,)]),
    *_combos("inner", lambda a, b: np.inner(a, b), [(), (3,), (2, 3)], [(), (3,), (4, 3)]),
    *_combos("matmul", lambda a, b: np.matmul(a, b), [(3,), (2, 3), (2, 2, 3)],
             [(3,), (3, 4), (2, 3, 4)]),
    *_combos("matmul broadcast", lambda a, b: np.matmul(a, b), [(1, 2, 2)], [(3, 2, 1)]),
    *[Form("kron", lambda a, b: np.kron(a, b), shapes) for shapes in [
        ((5, 5), (3, 3)), ((4, 4), (2, 2)), ((5,), (3,)), ((5, 1), (1, 3)), ((1, 5), (3, 1)),
        ((), ())]],
]

FORMS = EINSUM + TENSORDOT + PRODUCTS
