"""Programs full of negations, subtractions and quotients, where a rewrite of the backward
sweep that moves or cancels signs (a negated first contribution turned into a
difference, two negations along a chain of products cancelled, a negation absorbed into
a product) could drop or double one: with broadcasting, a value read twice, in-place
accumulation in a loop, unsigned and signed integer and float32 operands. Each gradient
against central finite differences, in reverse and forward mode, for every argument."""

import numpy as np
import pytest

from tests.soundness.test_speed_assumptions import check_every_argument

RNG = np.random.default_rng(23)
U8 = np.array([3, 250, 7], dtype=np.uint8)
I8 = np.array([-3, 5, -7], dtype=np.int8)


def negated_chain(x, y):
    p = -x * y
    q = -(p / y) * -x
    return np.sum(-q - p)


def difference_of_quotients(x, y):
    a = x / y - y / x
    b = -(a * a) - a / (x * y)
    return np.sum(b - (-a))


def negation_with_broadcasting(x, b):
    m = -np.outer(x, x) - b
    return np.sum(-m * m) - np.sum(b * -x)


def negated_in_a_loop(x, y):
    s = -x
    for k in range(3):
        s = s - (-s * y) / (k + 2.0) - np.sin(-s)
    return np.sum(-s)


def with_unsigned_and_signed_ints(x, y):
    a = x * -U8 - y * I8
    b = -(x / (U8 + 1.0)) * -I8
    return np.sum(a * b) - np.sum(-a)


def negative_powers_and_logs(x, y):
    r = -np.log(x * x + 1.0) / -y ** 2 - (-x) ** 3
    return np.sum(-r * y)


def minus_a_negated_value(x):
    a = np.sin(x)
    b = a * x + np.cos(a)
    return np.sum(b - (-a))


def minus_a_negated_value_read_again(x):
    a = x * 3.0
    c = (a - (-a)) * np.tanh(a)
    return np.sum(c + a * a)


X3 = RNG.standard_normal(3)
Y3 = RNG.random(3) + 0.5
CASES = [
    (negated_chain, (X3, Y3)),
    (minus_a_negated_value, (X3,)),
    (minus_a_negated_value_read_again, (X3,)),
    (difference_of_quotients, (Y3 * 1.3, Y3)),
    (negation_with_broadcasting, (X3, RNG.standard_normal(3))),
    (negation_with_broadcasting, (X3, 0.3)),
    (negated_in_a_loop, (X3 * 0.5, Y3)),
    (with_unsigned_and_signed_ints, (X3, Y3)),
    (negative_powers_and_logs, (X3, Y3)),
    (negated_chain, (0.7, 1.3)),
    (negated_in_a_loop, (0.4, 0.9)),
]


@pytest.mark.parametrize("f, args", CASES,
                         ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(CASES)])
def test_signs_survive_the_backward_sweep(f, args):
    check_every_argument(f, args)


def test_float32_operands_keep_their_signs():
    x, y = X3.astype(np.float32), Y3.astype(np.float32)
    check = dict(rtol=2e-3, atol=1e-4)
    import srcgrad as sg
    from tests.conftest import numeric_grad

    for f in (negated_chain, difference_of_quotients, negated_in_a_loop):
        got = sg.grad(f, wrt=(0, 1))(x, y)
        for i in range(2):
            want = numeric_grad(f, [x.astype(float), y.astype(float)], i)
            np.testing.assert_allclose(np.asarray(got[i], float), want, **check)
