"""Functions of a Python float (not an array) at orders 1 to 3, reverse, forward and
mixed (``check_grads`` in autograd's form, against central differences): a rule whose
partial is a 0-d array (``np.where``, ``polygamma``) met a float where the fused
``unbroadcast_product`` read its ``dtype``. CI checks one mode set per function
(``hash_sample``); ``--rule-orders-full`` all."""

import numpy as np
import pytest
import scipy.special as special

from srcgrad.testing import check_grads
from tests.rules.orders import hash_sample


def sinc(x):
    return 3.0 * np.sinc(x)


def psi(x):
    return special.psi(x)


def digamma(x):
    return special.digamma(x) * x


def gammaln(x):
    return special.gammaln(x)


def erf(x):
    return special.erf(x) + np.tanh(x)


def where(x):
    return np.where(x > 0.0, x ** 3, -x)


def clip(x):
    return np.clip(x, 0.0, 5.0) ** 2


FUNCTIONS = [sinc, psi, digamma, gammaln, erf, where, clip]
POINTS = (1.7, 3.3)
MODES = [("rev",), ("fwd",), ("fwd", "rev")]
COMBOS = [(f, modes) for f in FUNCTIONS for modes in MODES]


def _id(combo):
    return f"{combo[0].__name__}-{'+'.join(combo[1])}"


def _run(combo):
    f, modes = combo
    for x in POINTS:
        np.random.seed(0)
        check_grads(f, modes=list(modes), order=3 if len(modes) == 1 else 2)(x)


SAMPLE = hash_sample(COMBOS, lambda c: c[0].__name__, _id)


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_a_sample_of_float_arguments(combo):
    _run(combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_function_and_mode(combo):
    _run(combo)
