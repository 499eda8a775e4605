"""A Python number given as the tangent runs as a NumPy float (as reverse mode's seed
does), so at a pole of the function the directional derivative is NumPy's inf, as the
function's value is, where Python float arithmetic raised ZeroDivisionError
(``x_dot / x`` at ``x = 0.0``). Closed forms are the oracle, compared with what the
reverse mode gives at the same point."""

import warnings

import numpy as np
import pytest

import srcgrad as sg


def log_plus(x):
    return np.log(x) + x


def inverse_tanh(x):
    return np.arctanh(x) * 2.0


def shifted_log1p(x):
    return np.log1p(x - 1.0)


def quotient(x, y):
    return np.divide(x, y) + x


POLES = [(log_plus, (0.0,), np.inf), (inverse_tanh, (1.0,), np.inf),
         (shifted_log1p, (0.0,), np.inf), (quotient, (1.0, 0.0), np.inf)]


@pytest.mark.parametrize("f, args, slope", POLES, ids=[f.__name__ for f, _, _ in POLES])
def test_a_python_float_tangent_at_a_pole_is_numpy_inf(f, args, slope):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        value, tangent = sg.jvp(f)(*args, 1.0)
        assert np.isnan(value) or np.isinf(value)
        assert tangent == slope == sg.grad(f)(*args)
        assert sg.jvp(f)(*args, 1)[1] == slope   # an int tangent too


def test_a_python_float_tangent_away_from_a_pole_is_unchanged():
    value, tangent = sg.jvp(log_plus)(2.0, 0.5)
    assert value == np.log(2.0) + 2.0
    assert tangent == 0.5 / 2.0 + 0.5
