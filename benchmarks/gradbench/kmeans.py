"""GradBench's k-means (``tools/pytorch/kmeans.py``, ``tools/jax/kmeans.py``), in plain
NumPy: the cost is the sum over points of the squared distance to the nearest centroid;
the derivative is one Newton step's direction, the gradient w.r.t. the centroids divided
by the Hessian's diagonal (a Hessian-vector product with ones: the Hessian is block
diagonal, one ``2 * count * I`` block per centroid)."""

import numpy as np

DERIVATIVE = "newton_direction"
WRT = 1
# (centroids, points, dimensions)
SIZES = {"bench": (100, 10_000, 8), "tiny": (3, 20, 2)}


def all_pairs_norm(a, b):
    a_sqr = np.sum(a ** 2, axis=1)[None, :]
    b_sqr = np.sum(b ** 2, axis=1)[:, None]
    diff = b @ a.T
    return a_sqr + b_sqr - 2 * diff


def objective(points, centroids):
    dists = all_pairs_norm(points, centroids)
    min_dist = np.min(dists, axis=0)
    return np.sum(min_dist)


def inputs(size, seed=0):
    k, n, d = size
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)), rng.standard_normal((k, d))
