"""dask arrays flow through generated code lazily: building a gradient runs no dask
computation (counted with a dask callback); computed, it matches central differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
from tests.jaxlike import dask_model
from tests.jaxlike.dask_model import loss

da = pytest.importorskip("dask.array")
callbacks = pytest.importorskip("dask.callbacks")


class ComputeCount(callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.count = 0

    def _start(self, dsk):
        self.count += 1


@pytest.fixture
def data(rng):
    x, y = rng.standard_normal((12, 3)), rng.standard_normal(12)
    return rng.standard_normal(3), x, y


@pytest.mark.parametrize("wrt", [0, 1, (0, 1, 2)], ids=["numpy_w", "dask_x", "all"])
def test_a_gradient_of_dask_arrays_stays_lazy_and_is_right(data, wrt):
    w, x, y = data
    lazy_x, lazy_y = da.from_array(x, chunks=(4, 3)), da.from_array(y, chunks=4)
    with ComputeCount() as computes:
        value, gradient = sg.value_and_grad(loss, wrt=wrt)(w, lazy_x, lazy_y)
        only_gradient = sg.grad(loss, wrt=wrt)(w, lazy_x, lazy_y)
    assert computes.count == 0
    gradients = gradient if isinstance(wrt, tuple) else (gradient,)
    assert all(isinstance(g, da.Array) for g in gradients)
    assert isinstance(value, da.Array)
    assert float(value.compute()) == pytest.approx(loss(w, x, y))
    for k, g in zip(wrt if isinstance(wrt, tuple) else (wrt,), gradients):
        assert np.allclose(g.compute(), numeric_grad(loss, (w, x, y), k), atol=1e-6)
    single = only_gradient[0] if isinstance(wrt, tuple) else only_gradient
    assert np.allclose(np.asarray(single), np.asarray(gradients[0]))


@pytest.mark.parametrize("function", [dask_model.elementwise, dask_model.reductions,
                                      dask_model.products, dask_model.product_with_a_zero,
                                      dask_model.broadcasting, dask_model.indexing,
                                      dask_model.methods],
                         ids=lambda f: f.__name__)
def test_each_kind_of_operation_stays_lazy_and_is_right(function, rng):
    x = rng.standard_normal((4, 4)) * 0.5
    lazy = da.from_array(x, chunks=2)
    with ComputeCount() as computes:
        value, gradient = sg.value_and_grad(function)(lazy)
        _, pulled = sg.vjp(function)(lazy)
        cotangent = pulled(1.0)
    assert computes.count == 0
    assert isinstance(gradient, da.Array) and isinstance(cotangent, da.Array)
    assert float(value.compute()) == pytest.approx(function(x))
    expected = numeric_grad(function, (x,), 0)
    assert np.allclose(gradient.compute(), expected, atol=1e-5)
    assert np.allclose(cotangent.compute(), expected, atol=1e-5)


@pytest.mark.parametrize("function", [dask_model.elementwise, dask_model.broadcasting,
                                      dask_model.products], ids=lambda f: f.__name__)
def test_a_forward_derivative_of_dask_arrays_stays_lazy(function, rng):
    x, v = rng.standard_normal((4, 4)) * 0.5, rng.standard_normal((4, 4))
    with ComputeCount() as computes:
        _, tangent = sg.jvp(function)(da.from_array(x, chunks=2), da.from_array(v, chunks=2))
    assert computes.count == 0
    eps = 1e-6
    expected = (function(x + eps * v) - function(x - eps * v)) / (2 * eps)
    assert float(tangent.compute()) == pytest.approx(expected, rel=1e-5, abs=1e-6)


def test_a_repeated_fancy_index_adds_every_occurrence(rng):
    x = rng.standard_normal((4, 4))
    with ComputeCount() as computes:
        gradient = sg.grad(dask_model.indexing)(da.from_array(x, chunks=2))
    assert computes.count == 0
    computed = gradient.compute()
    assert np.allclose(computed, numeric_grad(dask_model.indexing, (x,), 0), atol=1e-5)


def test_a_mask_computed_from_a_dask_array_is_refused_not_guessed(rng):
    lazy = da.from_array(rng.standard_normal((4, 4)), chunks=2)
    with pytest.raises(TypeError, match="cannot add a cotangent into a dask"):
        sg.grad(dask_model.masked_by_its_values)(lazy)
