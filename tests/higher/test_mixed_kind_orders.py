"""A derivative has its argument's kind at every order: a real argument's is real and a
complex argument's complex, also where the other arguments (or the cotangent, or the
direction a derivative is taken in) are complex. Functions of a real and a complex
argument, checked by ``srcgrad.testing.check_grads`` in autograd's form (its recursion
through vjp and jvp of ``(x, v)`` to order 3, values against central differences in
real and imaginary directions, and each derivative's structure and kind).

CI checks one (function, kinds, mode) per function, picked by ``hash_sample``;
``--rule-orders-full`` checks them all.
"""


import numpy as np
import pytest

from srcgrad.testing import check_grads
from tests.rules.orders import hash_sample


def kron(a, b):
    return np.kron(a, b)


def dot(a, b):
    return np.dot(a, b)


def outer(a, b):
    return np.outer(a, b)


def matmul(a, b):
    return a @ b


def multiply(a, b):
    return a * b


def add(a, b):
    return np.add(a, b)


def real_part(a, b):
    return np.real(a * b)


def divide(a, b):
    return a / (b + 3.0)


SHAPES = {kron: ((2, 2), (3, 2)), dot: ((3,), (3,)), outer: ((3,), (2,)),
          matmul: ((2, 3), (3,)), multiply: ((2, 3), (3,)), add: ((), (2,)),
          real_part: ((2,), (2,)), divide: ((3,), ())}
KINDS = [("real", "complex"), ("complex", "real"), ("real", "real"), ("complex", "complex")]
MODES = (("rev",), ("fwd",), ("fwd", "rev"))
COMBOS = [(f, kinds, modes) for f in SHAPES for kinds in KINDS for modes in MODES]


def _id(combo):
    f, kinds, modes = combo
    return f"{f.__name__}-{'-'.join(kinds)}-{'+'.join(modes)}"


def _value(shape, kind, rng):
    x = rng.standard_normal(shape)
    if kind == "complex":
        x = x + 1j * rng.standard_normal(shape)
    return float(x) if shape == () and kind == "real" else x


def _run(combo):
    f, kinds, modes = combo
    rng = np.random.default_rng(0)
    args = [_value(s, k, rng) for s, k in zip(SHAPES[f], kinds)]
    np.random.seed(1)
    for argnum in (0, 1, [0, 1]):
        check_grads(f, argnum, modes=list(modes), order=3 if modes != MODES[2] else 2)(*args)


SAMPLE = hash_sample(COMBOS, lambda c: c[0].__name__, _id)


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_a_sample_of_mixed_kinds(combo):
    _run(combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_function_kind_and_mode(combo):
    _run(combo)


def test_the_gradient_of_a_real_function_at_a_complex_point_is_complex():
    from srcgrad import grad
    for x in (1.0j, np.array([1.0j, 2.0]), np.complex128(0.5 + 1j)):
        g = grad(lambda z: np.sum(np.real(z)))(x)
        assert np.iscomplexobj(g) and np.allclose(g, 1.0)
    assert np.isrealobj(grad(lambda t: np.sum(np.real(t * (1 + 2j))))(np.ones(2)))


