"""``np.r_[...]`` and ``np.c_[...]`` differentiated again: reverse over reverse passes
the joins' transposes the cotangent of their items made dense (a list or an array, not
a tuple), which ``concat_items_tangent`` took for one item. Joins of a variable with
constants, with itself, with slices and numbers, 1-D and 2-D, real and complex, at
orders 2 and 3 in reverse, forward and mixed modes (``check_grads`` in autograd's form,
against central differences). CI checks one mode set per join (``hash_sample``);
``--rule-orders-full`` all."""

import numpy as np
import pytest

from srcgrad.testing import check_grads
from tests.rules.orders import hash_sample

C2 = np.arange(6.0).reshape(3, 2) / 7.0
C1 = np.array([0.5, -1.0, 2.0])


def r_with_constant(x):
    return np.r_[x, C2] ** 2


def r_with_itself(x):
    return np.r_[x, x * 2.0]


def r_with_slices(x):
    return np.r_[x[:, 0], 0:3, 2.0, x[:, 1]] ** 2


def c_with_constant(x):
    return np.c_[x, C2] * np.c_[C2, x]


def c_of_vectors(x):
    return np.c_[x[:, 0], C1, x[:, 1]] ** 3


JOINS = [r_with_constant, r_with_itself, r_with_slices, c_with_constant, c_of_vectors]
MODES = [("rev",), ("fwd",), ("fwd", "rev")]
COMBOS = [(f, modes, kind) for f in JOINS for modes in MODES for kind in ("real", "complex")]


def _id(combo):
    return f"{combo[0].__name__}-{'+'.join(combo[1])}-{combo[2]}"


def _run(combo):
    f, modes, kind = combo
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 2))
    if kind == "complex":
        x = x + 0.5j * rng.standard_normal((3, 2))
    np.random.seed(0)
    check_grads(f, modes=list(modes), order=3 if len(modes) == 1 else 2)(x)


SAMPLE = hash_sample(COMBOS, lambda c: c[0].__name__, _id)


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_a_sample_of_joins_at_higher_order(combo):
    _run(combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_join_and_composition(combo):
    _run(combo)
