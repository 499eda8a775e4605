"""Data-parallel gradients on a dask.distributed cluster.

The data is split into shards that stay on the workers; each step sends the parameters
and srcgrad's generated ``value_and_grad`` (it pickles: the receiving worker regenerates
it, or loads it from its disk cache) to every shard, sums the shards' losses and
gradients, and hands the sum to ``srcgrad.optimizers.adam``.

    python examples/distributed.py                      # a LocalCluster of 2 workers
    python examples/distributed.py --scheduler tcp://10.0.0.5:8786
"""

import argparse
import os
import sys

# Run as a script, this file's folder comes first on sys.path, where this file's own
# name would hide the `distributed` package that dask.distributed imports.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)

import numpy as np  # noqa: E402
from dask.distributed import Client, LocalCluster  # noqa: E402

import srcgrad as sg  # noqa: E402
from srcgrad.optimizers import adam  # noqa: E402


def loss(w, x, y):
    """Logistic regression's negative log-likelihood on one shard (summed, not averaged,
    so that the shards' losses add up to the whole data's)."""
    logits = x @ w
    return np.sum(np.logaddexp(0.0, logits) - y * logits)


def make_data(rng, count=2000, features=5):
    true_w = rng.standard_normal(features)
    x = rng.standard_normal((count, features))
    y = (rng.uniform(size=count) < 1 / (1 + np.exp(-x @ true_w))).astype(float)
    return x, y, true_w


def scatter_shards(client, x, y, shards):
    """The data split into ``shards`` parts, each sent to a worker once."""
    parts = [(xs, ys) for xs, ys in zip(np.array_split(x, shards), np.array_split(y, shards))]
    return client.scatter(parts)


def shard_value_and_grad(value_and_grad, w, shard):
    x, y = shard
    return value_and_grad(w, x, y)


def distributed_value_and_grad(client, value_and_grad, w, shards):
    """The loss and gradient over every shard: computed where the shards are, summed."""
    futures = [client.submit(shard_value_and_grad, value_and_grad, w, shard)
               for shard in shards]
    results = client.gather(futures)
    return sum(value for value, _ in results), sum(gradient for _, gradient in results)


def train(client, x, y, shards=4, num_iters=100, step_size=0.1, report_every=25, out=print):
    """Fit ``loss`` with Adam on gradients summed over the shards; returns (w, losses)."""
    parts = scatter_shards(client, x, y, shards)
    value_and_grad = sg.value_and_grad(loss)
    losses = []

    def objective_grad(w, i):
        value, gradient = distributed_value_and_grad(client, value_and_grad, w, parts)
        if i % report_every == 0 or i == num_iters - 1:
            losses.append(value / len(x))
            out(f"iteration {i:4d}   mean loss {losses[-1]:.4f}   on {len(parts)} shards")
        return gradient / len(x)

    w = adam(objective_grad, np.zeros(x.shape[1]), num_iters=num_iters, step_size=step_size)
    return w, losses


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scheduler", help="address of a running dask scheduler "
                        "(default: start a LocalCluster)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers")
    parser.add_argument("--iters", type=int, default=100)
    args = parser.parse_args(argv)
    x, y, true_w = make_data(np.random.default_rng(0))
    if args.scheduler:
        with Client(args.scheduler) as client:
            w, _ = train(client, x, y, num_iters=args.iters)
    else:
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as cluster, \
                Client(cluster) as client:
            w, _ = train(client, x, y, num_iters=args.iters)
    print("fitted weights:", np.round(w, 3))
    print("true weights:  ", np.round(true_w, 3))


if __name__ == "__main__":
    main()
