"""``srcgrad.testing.check_grads`` in autograd's form checks what autograd's does: each
order up to ``order`` through reverse and forward compositions, complex arguments in
their imaginary directions, lists of argnums, and the structure and real-or-complex kind
of every derivative. Each planted error below passes the checks below its order and
fails at its own, in the mode it is planted in."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.testing import check_grads


@sg.custom_vjp
def cube(x):
    return x ** 3


cube.defvjp(lambda x: (x ** 3, x),
            lambda x, g: (g * 3.0 * sg.stop_gradient(x) ** 2,))   # right value, no second


@sg.custom_vjp
def quartic(x):
    return x ** 4


quartic.defvjp(lambda x: (x ** 4, x),
               lambda x, g: (g * 4.0 * cube(x),))    # orders 1 and 2 right, 3 wrong


@sg.custom_vjp
def power(z):
    return np.real(z * np.conj(z))


power.defvjp(lambda z: (np.real(z * np.conj(z)), z),
             lambda z, g: (g * 2.0 * z,))             # the conjugate of 2 conj(z): wrong off R


@sg.custom_jvp
def double(x):
    return 2.0 * x


double.defjvp(lambda primals, tangents: (2.0 * primals[0], tangents[0] * (2.0 + 0j)))
# (a real output's tangent with an imaginary part: forward mode keeps it, to be seen)


def quartic_sum(x):
    return np.sum(quartic(x))


def power_sum(z):
    return np.sum(power(z))


def double_sum(x):
    return np.sum(double(x))


def pair(x, y, n=2):
    return np.sin(x) * y ** n


X = np.array([0.3, -1.2, 0.5])


@pytest.mark.parametrize("modes", [["rev"], ["fwd", "rev"]])
def test_an_error_planted_at_the_third_order_passes_order_two_and_fails_order_three(modes):
    check_grads(quartic_sum, modes=modes, order=2)(X)
    with pytest.raises(AssertionError, match="of vjp_vjp_quartic_sum is wrong"):
        check_grads(quartic_sum, modes=modes, order=3)(X)


@pytest.mark.parametrize("z", [0.4 + 0.3j, np.array([0.4 + 0.3j, -1.0 + 0.2j])])
def test_a_complex_argument_is_checked_in_its_imaginary_direction(z):
    check_grads(power_sum, modes=["rev"], order=1)(np.real(z))    # real: the rule is right
    with pytest.raises(AssertionError, match="gradient of power_sum is wrong"):
        check_grads(power_sum, modes=["rev"], order=1)(z)
    check_grads(lambda w: np.sum(np.abs(w) ** 2), order=3)(z)     # the true rule, order 3


def test_a_real_outputs_tangent_must_be_real():
    with pytest.raises(AssertionError, match="wrong structure"):
        check_grads(double_sum, modes=["fwd"], order=1)(X)


def test_argnums_keywords_and_fixed_arguments():
    for argnum in (0, 1, [0, 1], (1, 0)):
        check_grads(pair, argnum, order=3)(X, X + 2.0, n=3)
        check_grads(pair, argnum=argnum, order=2)(X, 0.7)
    nested = {"a": 0.5, "b": (X, 1.5)}
    check_grads(lambda d: d["a"] * np.sum(d["b"][0] * d["b"][1]) ** 2, order=2)(nested)
