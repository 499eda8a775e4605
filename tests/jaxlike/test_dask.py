"""dask arrays flow through generated code lazily: building a gradient runs no dask
computation (counted with a dask callback); computed, it matches central differences."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
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
