"""sg.source of a dense Jacobian or Hessian shows the generated code it is built on."""

import numpy as np

import srcgrad as sg


def wave(x):
    return np.sum(np.sin(x) * x)


def test_source_of_a_jacobian_shows_its_forward_and_reverse_functions():
    text = sg.source(sg.jacobian(wave))
    assert "def wave_jvp(" in text and "def wave_backward(" in text
    reverse_only = sg.source(sg.jacrev(wave))
    assert "def wave_backward(" in reverse_only and "def wave_jvp(" not in reverse_only
    forward_only = sg.source(sg.jacfwd(wave))
    assert "def wave_jvp(" in forward_only and "def wave_backward(" not in forward_only


def test_source_of_a_hessian_is_forward_mode_over_the_gradient():
    text = sg.source(sg.hessian(wave))
    assert "def wave_grad_jvp(" in text
    x = np.array([0.3, 1.2])   # the Hessian it runs: diag(2 cos x - x sin x)
    assert np.allclose(sg.hessian(wave)(x), np.diag(2 * np.cos(x) - x * np.sin(x)))
