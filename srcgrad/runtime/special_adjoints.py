"""Partials and adjoints of ``scipy.special`` rows.

SciPy is optional: the rows exist only when it imports, and these helpers import it on
first use, so the runtime itself still needs only NumPy.
"""

from __future__ import annotations

import math

import numpy as np

from srcgrad.runtime.adjoints import _expand
from srcgrad.runtime.core import as_array


def _special():
    import scipy.special

    return scipy.special


def digamma(x):
    return _special().digamma(x)


def polygamma(n, x):
    """SciPy's ``polygamma``, which is real only; complex ``x`` (``n >= 1``): below."""
    if np.iscomplexobj(x) and np.ndim(n) == 0 and n >= 1:
        return complex_polygamma(int(n), x)
    return _special().polygamma(n, x)


# B_2k for k = 1..7 (the asymptotic series of the polygamma functions).
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)


def complex_polygamma(n, z):
    """``psi^(n)(z) = (-1)^(n+1) n! sum_k 1 / (z + k)^(n+1)`` for complex ``z``, ``n >= 1``:
    the recurrence moves ``z`` to ``Re z >= 16``, where the asymptotic series (seven
    Bernoulli terms) is exact to double precision."""
    z = np.asarray(z, dtype=complex)
    shift = int(max(0.0, np.ceil(16.0 - np.min(np.real(z), initial=16.0))))
    head = sum((1 / (z + k) ** (n + 1) for k in range(shift)), np.zeros_like(z))
    w = z + shift
    tail = math.factorial(n - 1) / w ** n + math.factorial(n) / (2 * w ** (n + 1))
    for k, b in enumerate(_BERNOULLI, start=1):
        tail = tail + b * math.factorial(2 * k + n - 1) / math.factorial(2 * k) / w ** (2 * k + n)
    return (-1) ** (n + 1) * (math.factorial(n) * head + tail)


def gamma(x):
    return _special().gamma(x)


# The Bessel functions of any order that the rows of scipy.special's Bessel functions call
# (``j1(x)`` is ``bessel('jv', 1, x)``, ``jv(v - 1, x)`` is ``bessel('jv', v, x, -1)``: the
# order is passed on as it was given, so a gradient differentiated again reads it as the
# constant it is, not as a value the gradient computed), and the weights of their
# derivative in ``x``: ``d B(v, x) = (lo B(v - 1, x) + hi B(v + 1, x)) dx + c B(v, x)
# Re(dx)``, where ``c`` is what the factor ``exp(-|Re x|)`` adds to ive (piecewise
# constant: the weights carry no derivative).
# ``yn(n, x)`` truncates a non-integer order ``n`` toward 0: its neighbours are
# ``yv(trunc(n) -+ 1, x)`` (``yn(n -+ 1)`` truncates across 0 differently for |n| < 1).
_BESSEL_WEIGHTS = {"jv": (0.5, -0.5), "yv": (0.5, -0.5), "iv": (0.5, 0.5),
                   "kv": (-0.5, -0.5), "ive": (0.5, 0.5), "yn": (0.5, -0.5)}


def bessel(name, v, x, shift=0):
    """``scipy.special.<name>(v + shift, x)`` for a Bessel function of order ``v``
    (``yv(trunc(v) + shift, x)`` for ``yn``)."""
    if name not in _BESSEL_WEIGHTS:
        raise ValueError(f"bessel: no Bessel function {name!r}")
    if name == "yn":
        return _special().yv(np.trunc(v) + shift, x)
    return getattr(_special(), name)(v + shift if shift else v, x)


def bessel_weights(name, x):
    """``(lo, hi, c)`` of ``bessel(name, v, x)``'s derivative in ``x`` (see above)."""
    lo, hi = _BESSEL_WEIGHTS[name]
    return lo, hi, -np.sign(np.real(x)) if name == "ive" else 0.0


def betaln(a, b):
    return _special().betaln(a, b)


def zeta(x, q):
    """The Hurwitz zeta function (``d zeta(x, q) / dq = -x zeta(x + 1, q)``)."""
    return _special().zeta(x, q)


def multidigamma(a, d):
    """d multigammaln(a, d) / da = sum over j < d of digamma(a - j / 2)."""
    return sum(digamma(as_array(a) - j / 2) for j in range(int(d)))


def multipolygamma(n, a, d):
    """The n-th derivative of ``multidigamma(a, d)``: sum over j < d of
    polygamma(n, a - j / 2)."""
    return sum(polygamma(n, as_array(a) - j / 2) for j in range(int(d)))


def scalar_polygamma(n, x):
    """``polygamma(n, x)`` (n >= 1) of a real scalar without SciPy: the derivatives of
    ``adjoints.scalar_digamma`` (``math.lgamma``'s rows)."""
    return float(np.real(complex_polygamma(int(n), x)))


def exprel_partial(x, ans):
    """d exprel(x) / dx = (exp(x) - exprel(x)) / x, and 1/2 at 0."""
    x = as_array(x, float)
    near_zero = np.abs(x) < 1e-5
    safe = np.where(near_zero, 1.0, x)
    return np.where(near_zero, 0.5 + x / 3, (np.exp(safe) - ans) / safe)


def xlogy_x_partial(x, y):
    """d xlogy(x, y) / dx = log(y) (0 where x == 0 and y == 0, as xlogy itself)."""
    return np.where((as_array(x) == 0) & (as_array(y) == 0), 0.0, np.log(y))


def logsumexp_adjoint(g, a, ans, axis, keepdims, b):
    weights = np.exp(a - _expand(ans, a, axis, keepdims))
    if b is not None:
        weights = weights * b
    return _expand(g, a, axis, keepdims) * weights


def logsumexp_adjoint_b(g, a, ans, axis, keepdims, b):
    return _expand(g, a, axis, keepdims) * np.exp(a - _expand(ans, a, axis, keepdims))


def logsumexp_tangent(a_dot, a, ans, axis, keepdims, b):
    weights = np.exp(a - _expand(ans, a, axis, keepdims))
    if b is not None:
        weights = weights * b
    return np.sum(a_dot * weights, axis=axis, keepdims=keepdims)


def softmax_adjoint(g, ans, axis):
    return ans * (g - np.sum(g * ans, axis=axis, keepdims=True))


def log_softmax_adjoint(g, ans, axis):
    return g - np.exp(ans) * np.sum(g, axis=axis, keepdims=True)


def log_softmax_tangent(x_dot, ans, axis):
    return x_dot - np.sum(np.exp(ans) * x_dot, axis=axis, keepdims=True)
