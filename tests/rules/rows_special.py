"""Test rows for scipy.special (present only when SciPy imports)."""

import numpy as np

from tests.rules.harness import normal, positive, row, uniform, unit

try:
    import scipy.special as sp
except ImportError:  # pragma: no cover
    sp = None

ROWS = [] if sp is None else [
    row("scipy.special.erf", lambda x: sp.erf(x), normal(4)),
    row("scipy.special.erfc", lambda x: sp.erfc(x), normal(4)),
    row("scipy.special.erfinv", lambda x: sp.erfinv(x), unit(4)),
    row("scipy.special.erfcinv", lambda x: sp.erfcinv(x), uniform(0.2, 1.8, 4)),
    row("scipy.special.expit", lambda x: sp.expit(x), normal(4)),
    row("scipy.special.logit", lambda x: sp.logit(x), uniform(0.1, 0.9, 4)),
    row("scipy.special.log_expit", lambda x: sp.log_expit(x), normal(4)),
    row("scipy.special.gammaln", lambda x: sp.gammaln(x), positive(4)),
    row("scipy.special.gamma", lambda x: sp.gamma(x), positive(4)),
    row("scipy.special.rgamma", lambda x: sp.rgamma(x), positive(4)),
    row("scipy.special.digamma", lambda x: sp.digamma(x), positive(4)),
    row("scipy.special.polygamma", lambda x: sp.polygamma(2, x), positive(4)),
    row("scipy.special.xlogy", lambda x, y: sp.xlogy(x, y), normal(2, 3), positive(3)),
    row("scipy.special.xlog1py", lambda x, y: sp.xlog1py(x, y), normal(3), positive(2, 3)),
    row("scipy.special.entr", lambda x: sp.entr(x), positive(4)),
    row("scipy.special.betaln", lambda a, b: sp.betaln(a, b), positive(3), positive(2, 3)),
    row("scipy.special.beta", lambda a, b: sp.beta(a, b), positive(3), positive(3)),
    row("scipy.special.j0", lambda x: sp.j0(x), normal(4)),
    row("scipy.special.j1", lambda x: sp.j1(x), normal(4)),
    row("scipy.special.y0", lambda x: sp.y0(x), positive(4)),
    row("scipy.special.i0", lambda x: sp.i0(x), normal(4)),
    row("scipy.special.i1", lambda x: sp.i1(x), normal(4)),
    row("scipy.special.logsumexp", lambda a: sp.logsumexp(a), normal(2, 3)),
    row("scipy.special.logsumexp", lambda a: sp.logsumexp(a, axis=1, keepdims=True),
        normal(2, 3), note="axis, keepdims"),
    row("scipy.special.logsumexp", lambda a, b: sp.logsumexp(a, axis=0, b=b), normal(3, 2),
        positive(3, 2), note="weights"),
    row("scipy.special.softmax", lambda x: sp.softmax(x, axis=1), normal(2, 4)),
    row("scipy.special.log_softmax", lambda x: sp.log_softmax(x), normal(5)),
    row("numpy.exp", lambda x: np.exp(sp.log_softmax(x, axis=0)), normal(3, 2),
        note="softmax via log_softmax"),
]
