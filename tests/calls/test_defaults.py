"""Defaults are the objects the ``def`` evaluated, in generated signatures and in
inlined local functions, in both modes."""

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.helpers import check_both_modes


def make_predictor(params, scale):
    def predict(x, params=params, *, scale=scale):
        return np.sum(np.tanh(x * params) * scale)
    return predict


def test_a_default_read_from_an_enclosing_scope():
    predict = make_predictor(np.array([1.0, -2.0, 0.5]), 1.5)
    check_both_modes(predict, (np.array([0.5, 0.1, -0.3]),))
    grad = sg.grad(predict, wrt="params")(np.array([0.5, 0.1, -0.3]))
    x, params = np.array([0.5, 0.1, -0.3]), np.array([1.0, -2.0, 0.5])
    assert np.allclose(grad, 1.5 * x * (1 - np.tanh(x * params) ** 2))


def test_the_generated_signature_names_the_default():
    predict = make_predictor(np.array([1.0]), 2.0)
    source = sg.source(sg.grad(predict))
    assert "params=params_default" in source and "scale=scale_default" in source


OFFSET = 1.0


def shifted(x, offset=OFFSET * 2):
    return np.sum((x - offset) ** 2)


def test_a_module_level_default_is_the_value_at_definition(monkeypatch):
    monkeypatch.setattr(__import__(__name__, fromlist=["_"]), "OFFSET", 10.0)
    x = np.array([0.5, 3.0])
    assert np.allclose(sg.grad(shifted)(x), 2 * (x - 2.0))
    check_both_modes(shifted, (x,))


def test_a_local_default_is_bound_where_the_def_runs():
    def f(x):
        params = 2.0 * x
        def predict(v, params=params):
            return v * params
        params = 5.0
        return predict(x)

    assert check_both_modes(f, (1.5,)) == pytest.approx(4 * 1.5)


def test_a_lambda_default_is_bound_where_it_is_defined():
    def f(x):
        c = np.sin(x)
        scale = lambda v, c=c: v * c  # noqa: E731
        c = 100.0
        return scale(x)

    check_both_modes(f, (0.7,))
