"""examples/distributed.py's core on a real 2-worker LocalCluster (worker processes on
the loopback interface): the summed shard gradients against central differences of the
whole data's loss, and a few optimisation steps."""

import importlib
import os

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

distributed = pytest.importorskip("dask.distributed")
example = importlib.import_module("examples.distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster, timeout=120) as client:
        yield client


def test_summed_shard_gradients_are_the_whole_datas_gradient(client, rng):
    x, y, _ = example.make_data(rng, count=120, features=3)
    w = rng.standard_normal(3)
    shards = example.scatter_shards(client, x, y, 4)
    value, gradient = example.distributed_value_and_grad(
        client, sg.value_and_grad(example.loss), w, shards)
    assert value == pytest.approx(example.loss(w, x, y))
    assert np.allclose(gradient, numeric_grad(example.loss, (w, x, y), 0), atol=1e-5)
    workers = client.run(os.getpid)
    assert len(workers) == 2 and os.getpid() not in workers.values()


def test_the_optimisation_loop_lowers_the_loss(client, rng):
    x, y, _ = example.make_data(rng, count=200, features=3)
    lines = []
    w, losses = example.train(client, x, y, shards=2, num_iters=6, step_size=0.2,
                              report_every=5, out=lines.append)
    assert len(lines) == 2 and "on 2 shards" in lines[0]     # iterations 0 and 5
    assert losses[-1] < losses[0] and w.shape == (3,)
