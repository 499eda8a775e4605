"""``np.matmul`` / ``@`` for every pairing of 1-D, 2-D and stacked operands (a stack of
matrices times a vector gave the vector's cotangent the wrong shape), real and
complex, both modes at order 1 and, for a sample, order 2 (``check_grads`` in autograd's
form, against central differences)."""

import itertools

import numpy as np
import pytest

from srcgrad.testing import check_grads

LEFT = [(3,), (2, 3), (2, 2, 3)]
RIGHT = [(3,), (3, 4), (2, 3, 4)]
PAIRS = list(itertools.product(LEFT, RIGHT))


def matmul(a, b):
    return a @ b


def _operand(shape, kind, rng):
    x = rng.standard_normal(shape)
    return x + 1j * rng.standard_normal(shape) if kind == "complex" else x


@pytest.mark.parametrize("kind", ["real", "complex"])
@pytest.mark.parametrize("shapes", PAIRS, ids=str)
def test_matmul_of_every_pairing(shapes, kind):
    rng = np.random.default_rng(len(shapes[0]) * 10 + len(shapes[1]))
    a, b = (_operand(s, kind, rng) for s in shapes)
    np.random.seed(0)
    for f in (np.matmul, matmul):
        check_grads(f, [0, 1], order=1)(a, b)
    if shapes in ((LEFT[2], RIGHT[0]), (LEFT[0], RIGHT[2])):
        check_grads(matmul, [0, 1], order=2)(a, b)
