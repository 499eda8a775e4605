"""A cast to an integer or boolean dtype truncates: the result is constant between its
jumps, so no derivative flows through it (``x.astype(int)``, ``np.asarray(x, int)``,
``np.array(x, dtype=bool)``, a write into an integer or boolean array); a cast to a
float dtype is the identity's. Both passed the derivative through as if the cast were
the identity. Against central finite differences away from the jumps, in every mode."""

import numpy as np
import pytest

from tests.soundness.oracle_modes import check_modes

X = np.array([0.33, 0.74, 1.12])   # x * 10 is never an integer within the stencil


def astype_int(x):
    y = (x * 10.0).astype(int)
    return np.sum(y * x)


def asarray_int(x):
    y = np.asarray(x * 10.0, np.int64)
    return np.sum(y * np.sin(x))


def array_bool(x):
    y = np.array(x - 0.5, dtype=bool)
    return np.sum(y * x * x)


def astype_float(x):
    y = (x * 3.0).astype(np.float64)
    return np.sum(y * x)


@pytest.mark.parametrize("f", [astype_int, asarray_int, array_bool, astype_float],
                         ids=lambda f: f.__name__)
def test_casts_to_integers_carry_no_derivative(f):
    assert np.any(check_modes(f, X) != 0.0)


def write_into_an_integer_array(x):
    y = np.zeros(3, dtype=int)
    y[0] = x[0] * 10.0
    return np.sum(y * x)


def write_into_an_integer_array_made_like_another(x):
    y = np.zeros_like(np.arange(3))
    y[1] = x[1] * 7.0
    return np.sum(y * 1.0) + x[0]


def slice_write_into_an_integer_array(x):
    y = np.zeros(3, dtype=np.int64)
    y[:] = x * 10.0
    return np.sum(y * x)


def write_into_a_boolean_array(x):
    y = np.zeros(3, dtype=bool)
    y[0] = x[0]
    return np.sum(y * x)


def write_into_a_list_of_integers(x):
    y = [0, 1]
    y[0] = x[0] * 2.0      # a list keeps the float: the derivative flows
    return y[0] * x[1]


@pytest.mark.parametrize("f", [write_into_an_integer_array,
                               write_into_an_integer_array_made_like_another,
                               slice_write_into_an_integer_array, write_into_a_boolean_array,
                               write_into_a_list_of_integers], ids=lambda f: f.__name__)
def test_writes_into_integer_arrays_carry_no_derivative(f):
    assert np.any(check_modes(f, X) != 0.0)


def _astype_program(dtype):
    def program(x):   # the corpus's astype_float, with the dtype given every way
        y = x.astype(dtype)
        return (y ** 2).sum() + x.astype(float).mean() + np.sum(y ** 3)
    return program


@pytest.mark.parametrize("dtype", [np.float64, float, "float64", np.dtype(np.float64)],
                         ids=["numpy class", "builtin", "string", "dtype"])
def test_second_derivatives_through_a_float_cast(dtype):
    """A class given to a method resolved at run time (``x.astype(np.float64)``) is no
    array: the checks on the tangents of the callee's saved values read its ``shape``, a
    descriptor of the class, and sg.hessian raised a TypeError."""
    import srcgrad as sg

    program = _astype_program(dtype)
    x = np.array([0.3, -1.2, 2.0])
    expected = np.diag(2.0 + 6.0 * x)   # closed form
    for _ in range(2):
        np.testing.assert_allclose(sg.hessian(program)(x), expected, rtol=1e-12, atol=1e-12)
    v = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(sg.hvp(program)(x, v), expected @ v, rtol=1e-12)
    along = sg.grad(lambda y: np.sum(sg.grad(program)(y) * v))   # reverse over reverse
    np.testing.assert_allclose(along(x), expected @ v, rtol=1e-12)
