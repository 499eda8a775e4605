"""Functions of the ``operator`` module called on values being differentiated are the
Python operators they name (``operator.add(a, b)`` is ``a + b``): called through the
module, imported by name, held in a variable, given to ``map`` and
``functools.reduce``; real and complex operands; both modes to order 3 against central
differences (``check_grads`` in autograd's form, which also checks each derivative's
kind)."""

import functools
import operator
from operator import mul

import numpy as np
import pytest

from srcgrad.testing import check_grads

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow,
          operator.mod, operator.matmul]


def through_module(a, b):
    return operator.add(operator.mul(a, b), operator.neg(a))


def imported_by_name(a, b):
    return mul(a, b) - operator.truediv(a, operator.pos(b))


def folded(a, b):
    return functools.reduce(operator.mul, [a, b, a])


def mapped(a, b):
    return sum(map(operator.sub, [a, b], [b, a * a]))


def _operands(f, kind, rng):
    shape = (3, 3) if f is operator.matmul else (2, 3)
    a, b = rng.standard_normal(shape), rng.standard_normal(shape)
    if f in (operator.pow, operator.mod):
        return np.abs(a) + 0.5, b if f is operator.pow else np.abs(b) + 2.0
    if kind == "complex" and f is not operator.mod:
        a, b = a + 1j * rng.standard_normal(shape), b + 0.5j
    return a, b


@pytest.mark.parametrize("kind", ["real", "complex"])
@pytest.mark.parametrize("f", BINARY + [through_module, imported_by_name, folded, mapped],
                         ids=lambda f: f.__name__)
def test_operator_functions(f, kind):
    rng = np.random.default_rng(3)
    a, b = _operands(f, kind, rng)
    np.random.seed(0)
    argnums = [1] if f is operator.pow else [0, 1]   # (pow w.r.t. its base: a real power)
    order = 3 if f in (through_module, operator.mul) else 2
    check_grads(f, argnums, order=order)(a, b)
    check_grads(f, argnums, order=1)(a, b)   # called again
