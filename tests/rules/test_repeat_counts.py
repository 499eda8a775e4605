"""``np.repeat`` with repeat counts of 0 (a scalar 0, or zeros among the counts), 1 and
more, flat and along each axis, real and complex, both modes at orders 1 and 2
(``check_grads`` in autograd's form, against central differences): the cotangent sum
by ``np.add.reduceat`` gave an element repeated 0 times the next one's first copy (a
wrong number) or raised an IndexError at the end."""

import numpy as np
import pytest

from srcgrad.testing import check_grads

CASES = [((2, 3, 4), 0, None), ((2, 3, 4), 0, 1), ((2, 3, 4), 2, 0), ((3, 1), 1, None),
         ((4,), [2, 0, 1, 0], 0), ((2, 3), [0, 3], 0), ((2, 3), [1, 0, 2], 1),
         ((3,), [0, 0, 2], None)]


def repeated(x, repeats, axis):
    return np.repeat(x, repeats, axis=axis) ** 2


@pytest.mark.parametrize("kind", ["real", "complex"])
@pytest.mark.parametrize("shape, repeats, axis", CASES, ids=str)
def test_repeat_counts(shape, repeats, axis, kind):
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape)
    if kind == "complex":
        x = x + 1j * rng.standard_normal(shape)
    np.random.seed(0)
    check_grads(repeated, order=2)(x, repeats, axis)
    check_grads(np.repeat, order=1)(x, repeats, axis=axis)
