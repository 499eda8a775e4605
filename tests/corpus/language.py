"""The rest of the Python people write around their NumPy: comprehensions, lambdas,
nested functions and closures, ``*args``/``**kwargs``, keyword-only arguments, ``with``,
``try``, ``assert``, f-strings and prints, iteration helpers."""

import contextlib

import numpy as np


def list_comprehension(x):
    squares = [xi ** 2 for xi in x]
    return sum(squares) + squares[0] * squares[-1]


def generator_in_sum(x):
    return sum(np.sin(x[i]) * (i + 1) for i in range(len(x)))


def comprehension_with_condition(x, w):
    return sum([w * xi for xi in x if xi > 0])


def dict_comprehension(x):
    powers = {k: x ** k for k in range(1, 4)}
    return np.sum(powers[1] * powers[3] - powers[2])


def nested_comprehension(m):
    return sum([m[i, j] * m[j, i] for i in range(m.shape[0]) for j in range(m.shape[1])])


def comprehension_over_zip(x, y):
    return sum(a * b ** 2 for a, b in zip(x, y))


def enumerate_loop(x):
    total = 0.0
    for i, value in enumerate(x):
        total += value ** (i + 1)
    return total


def reversed_and_zip(x, y):
    acc = 0.0
    for a, b in zip(reversed(x), y):
        acc = acc * 0.5 + a * b
    return acc


def lambda_local(x):
    activation = lambda z: np.log1p(np.exp(z))
    return np.sum(activation(x) * activation(-x))


def lambda_captures_argument(x, scale):
    scaled = lambda t: scale * np.tanh(t)
    return np.sum(scaled(x) ** 2)


def nested_def_closure(x, w):
    def affine(v):
        return v * w + 1.0

    return np.sum(affine(affine(x)) ** 2)


def closure_over_local(x):
    offset = np.mean(x)

    def centered_square(v):
        return (v - offset) ** 2

    return np.sum(centered_square(x))


def nested_def_with_loop(x):
    def step(h, xi):
        return np.tanh(0.8 * h + xi)

    h = 0.0
    for xi in x:
        h = step(h, xi)
    return h


def _weighted_sum(*terms):
    total = 0.0
    for k, term in enumerate(terms):
        total = total + (k + 1) * np.sum(term)
    return total


def star_args_callee(x, y):
    return _weighted_sum(x ** 2, y, x * y)


def _scaled_norm(x, **options):
    return options["scale"] * np.sqrt(np.sum(x ** 2) + options["eps"])


def kwargs_callee(x):
    return _scaled_norm(x, scale=2.0, eps=1e-3)


def keyword_only(x, *, power=3, shift=0.5):
    return np.sum((x + shift) ** power)


def _penalised(x, *, lam):
    return np.sum(x ** 2) + lam * np.sum(np.abs(x))


def keyword_only_callee(x, lam):
    return _penalised(x, lam=lam) + _penalised(2.0 * x, lam=0.1)


def with_errstate(x):
    with np.errstate(over="ignore"):
        y = np.exp(x)
    return np.sum(y / (1.0 + y))


def with_nullcontext(x):
    with contextlib.nullcontext():
        y = x * x
    return np.sum(np.cos(y))


def try_finally(x):
    calls = 0
    try:
        y = np.sin(x) ** 2
        calls += 1
    finally:
        calls += 1
    return np.sum(y) * calls


def assert_and_print(x):
    assert x.ndim == 1, "expected a vector"
    total = np.sum(x ** 2)
    print(f"sum of squares over {x.size} entries: {total:.4f}")
    return total * np.sum(x)


def ternary_in_loop(x):
    acc = 0.0
    for xi in x:
        acc = acc + (xi ** 2 if xi > 0 else -xi)
    return acc


def while_with_tolerance(a):
    """Fixed-point iteration for sqrt(a) that stops on a tolerance."""
    x = a
    for _ in range(50):
        x_next = 0.5 * (x + a / x)
        if abs(x_next - x) < 1e-12:
            break
        x = x_next
    return x_next


def default_from_global(x, alpha=0.25):
    return np.sum(np.where(x > 0, x, alpha * x) ** 2)


def multiple_returns(x):
    if np.max(x) > 1.0:
        return np.sum(x / np.max(x))
    return np.sum(x)
