"""dask's own idioms with derivative functions as the task function, dask's default
``pure=True`` (tasks keyed by dask's token of the function and its arguments), each
result checked against central differences of the shard's loss: ``client.map``,
``client.submit``, ``dask.delayed(g)``, ``dask.bag.map``, ``multiprocessing.Pool.map``,
``joblib.Parallel``; and the tokens: the same in a fresh process, different where the
derivative differs."""

import multiprocessing
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
from tests.jaxlike.dask_model import loss

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("dask.distributed")
from dask.base import tokenize  # noqa: E402


def shards(rng, count=4):
    return [(rng.standard_normal((6, 3)), rng.standard_normal(6)) for _ in range(count)]


def expected(w, data, wrt=0):
    return [numeric_grad(loss, (w, x, y), wrt) for x, y in data]


def scaled(c):
    def f(w, x, y):
        return np.sum(np.sin(x @ w) * c) + np.sum(y)
    return f


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        yield client


@pytest.fixture
def deterministic():
    with dask.config.set({"tokenize.ensure-deterministic": True}):
        yield


def test_client_map_and_submit_are_pure(client, rng, deterministic):
    w, data = rng.standard_normal(3), shards(rng)
    g = sg.grad(loss)
    futures = client.map(g, [w] * 4, *zip(*data))
    for got, want in zip(client.gather(futures), expected(w, data)):
        assert np.allclose(got, want, atol=1e-5)
    x, y = data[0]
    first, again = client.submit(g, w, x, y), client.submit(sg.grad(loss), w, x, y)
    other = client.submit(sg.grad(loss, wrt=1), w, x, y)
    assert first.key == again.key != other.key      # the same task; another derivative
    assert np.allclose(first.result(), expected(w, data[:1])[0], atol=1e-5)
    assert np.allclose(other.result(), numeric_grad(loss, (w, x, y), 1), atol=1e-5)
    value, gradient = client.submit(sg.value_and_grad(loss), w, x, y).result()
    assert value == pytest.approx(loss(w, x, y))
    assert np.allclose(gradient, first.result())


def test_closures_differing_in_a_cell_are_different_tasks(client, rng, deterministic):
    w, ((x, y),) = rng.standard_normal(3), shards(rng, 1)
    g2, g3 = sg.grad(scaled(2.0)), sg.grad(scaled(3.0))
    assert tokenize(g2) != tokenize(g3) and tokenize(g2) == tokenize(sg.grad(scaled(2.0)))
    got2, got3 = client.gather([client.submit(g2, w, x, y), client.submit(g3, w, x, y)])
    assert np.allclose(got2, numeric_grad(scaled(2.0), (w, x, y), 0), atol=1e-5)
    assert np.allclose(got3, numeric_grad(scaled(3.0), (w, x, y), 0), atol=1e-5)


def test_delayed_and_bag(rng, deterministic):
    import dask.bag as db

    w, data = rng.standard_normal(3), shards(rng)
    g = sg.grad(loss)
    lazy = [dask.delayed(g, pure=True)(w, x, y) for x, y in data]
    assert lazy[0].key == dask.delayed(sg.grad(loss), pure=True)(w, *data[0]).key
    assert lazy[0].key != dask.delayed(sg.grad(loss, wrt=1), pure=True)(w, *data[0]).key
    got = dask.compute(*lazy, scheduler="sync")
    bag = db.map(g, db.from_sequence([w] * 4, npartitions=2),
                 db.from_sequence([x for x, _ in data], npartitions=2),
                 db.from_sequence([y for _, y in data], npartitions=2))
    for result in (got, bag.compute(scheduler="sync")):
        for one, want in zip(result, expected(w, data)):
            assert np.allclose(one, want, atol=1e-5)


def _call(job):
    g, args = job
    return g(*args)


def test_multiprocessing_pool_map(rng):
    w, data = rng.standard_normal(3), shards(rng)
    g = sg.grad(loss)
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    with context.Pool(2) as pool:
        got = pool.map(_call, [(g, (w, x, y)) for x, y in data])
    for one, want in zip(got, expected(w, data)):
        assert np.allclose(one, want, atol=1e-5)


def test_joblib_parallel(rng):
    joblib = pytest.importorskip("joblib")
    w, data = rng.standard_normal(3), shards(rng)
    g = sg.grad(loss)
    got = joblib.Parallel(n_jobs=2)(joblib.delayed(g)(w, x, y) for x, y in data)
    for one, want in zip(got, expected(w, data)):
        assert np.allclose(one, want, atol=1e-5)


TOKENS = """
import srcgrad as sg
from dask.base import tokenize
from tests.jaxlike.dask_model import loss
print(tokenize(sg.grad(loss)), tokenize(sg.hessian(loss, wrt=1)))
"""


def test_a_fresh_process_gives_the_same_tokens():
    """Imported before dask there (the registration waits for dask's import)."""
    here = f"{tokenize(sg.grad(loss))} {tokenize(sg.hessian(loss, wrt=1))}"
    root = pathlib.Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(root), *filter(None, [os.environ.get("PYTHONPATH")])])}
    there = subprocess.run([sys.executable, "-c", TOKENS], capture_output=True, text=True,
                           check=True, timeout=120, cwd=root, env=env).stdout.strip()
    assert there == here
