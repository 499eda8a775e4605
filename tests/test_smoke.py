import numpy as np

import srcgrad as sg
from tests.conftest import numeric_grad


def sin_of_product(x, w):
    return np.sin(x * w)


def tanh_recurrence(w, c):
    h = 0.5
    for _ in range(10):
        h = np.tanh(h * w + c) + 0.1 * np.sin(h)
    return h


def test_straight_line_matches_closed_form():
    assert np.isclose(sg.grad(sin_of_product)(0.3, 2.0), 2.0 * np.cos(0.6))


def test_loop_matches_finite_differences():
    grads = sg.grad(tanh_recurrence, (0, 1))(0.7, 0.2)
    for i in range(2):
        assert np.isclose(grads[i], numeric_grad(tanh_recurrence, [0.7, 0.2], i), rtol=1e-6)


def test_straight_line_code_has_no_stack():
    text = sg.source(sg.grad(sin_of_product))
    assert "stack" not in text and "pop(" not in text


def scaled_by_pi(x):
    return np.sin(x * np.pi) * -1.5


def test_module_constants_stay_operands_in_generated_code():
    df = sg.grad(scaled_by_pi)
    assert np.isclose(df(0.3), -1.5 * np.pi * np.cos(0.3 * np.pi))
    text = sg.source(df)
    assert "x * np.pi" in text and "_pi =" not in text and "_neg" not in text


def power(x, n):
    if n == 0:
        return 1.0
    return x * power(x, n - 1)


def test_recursive_calls_use_the_callee_split_pair():
    df = sg.grad(power)
    assert np.isclose(df(1.3, 4), 4 * 1.3 ** 3)
    assert "power_forward" in sg.source(df) and "power_backward" in sg.source(df)


def squared_modulus(z):
    return np.sum(np.abs(z) ** 2 + np.real(z) * 3.0)


def test_complex_inputs_follow_the_conjugate_convention():
    z = np.array([0.3 + 0.4j, -1.2 + 0.5j])
    eps = 1e-6
    expected = []
    for k in range(z.size):
        step = np.zeros_like(z)
        step[k] = eps
        d_real = (squared_modulus(z + step) - squared_modulus(z - step)) / (2 * eps)
        d_imag = (squared_modulus(z + 1j * step) - squared_modulus(z - 1j * step)) / (2 * eps)
        expected.append(np.conj(d_real + 1j * d_imag))
    assert np.allclose(sg.grad(squared_modulus)(z), expected, rtol=1e-6)


def log_of(x):
    return np.log(x)


def test_a_singular_point_gives_inf_as_numpy_does():
    with np.errstate(divide="ignore"):
        assert sg.grad(log_of)(0.0) == np.inf
