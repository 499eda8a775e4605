"""Independent oracles for the forward-mode tests: central finite differences."""

import numpy as np


def directional_difference(f, args, index, direction, eps=1e-6):
    """(f(x + eps v) - f(x - eps v)) / (2 eps) with ``x = args[index]``."""
    plus, minus = list(args), list(args)
    x = args[index]
    plus[index] = x + eps * direction
    minus[index] = x - eps * direction
    return (np.asarray(f(*plus)) - np.asarray(f(*minus))) / (2 * eps)


def close(a, b, rtol=1e-5, atol=1e-7):
    return np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=rtol,
                       atol=atol)
