"""``scipy.special``, registered only when SciPy imports (it is an optional dependency).

SciPy's ufuncs do not say which module they live in, so every row names itself.
"""

try:
    import scipy.special as sp
except ImportError:  # pragma: no cover - exercised only without SciPy
    sp = None

from srcgrad.rules.registry import defadjoint, defelementwise


def _elementwise(name, *partials, params=None):
    defelementwise(getattr(sp, name), *partials, params=params, name=f"scipy.special.{name}")


def _register():
    _elementwise("erf", "2 / np.sqrt(np.pi) * np.exp(-x ** 2)")
    _elementwise("erfc", "-2 / np.sqrt(np.pi) * np.exp(-x ** 2)")
    _elementwise("erfinv", "np.sqrt(np.pi) / 2 * np.exp(ans ** 2)")
    _elementwise("erfcinv", "-np.sqrt(np.pi) / 2 * np.exp(ans ** 2)")
    _elementwise("expit", "ans * (1 - ans)")
    _elementwise("logit", "1 / (x * (1 - x))")
    _elementwise("log_expit", "1 - np.exp(ans)")
    _elementwise("gammaln", "_sg.digamma(x)")
    _elementwise("gamma", "ans * _sg.digamma(x)")
    _elementwise("rgamma", "-ans * _sg.digamma(x)")
    _elementwise("digamma", "_sg.polygamma(1, x)")
    _elementwise("polygamma", None, "_sg.polygamma(n + 1, x)", params=("n", "x"))
    _elementwise("xlogy", "_sg.xlogy_x_partial(x, y)", "x / y")
    _elementwise("xlog1py", "np.log1p(y)", "x / (1 + y)")
    _elementwise("entr", "-np.log(x) - 1")
    _elementwise("betaln", "_sg.digamma(a) - _sg.digamma(a + b)",
                 "_sg.digamma(b) - _sg.digamma(a + b)", params=("a", "b"))
    _elementwise("beta", "ans * (_sg.digamma(a) - _sg.digamma(a + b))",
                 "ans * (_sg.digamma(b) - _sg.digamma(a + b))", params=("a", "b"))
    _elementwise("j0", "-_sg.bessel('j1', x)")
    _elementwise("y0", "-_sg.bessel('y1', x)")
    _elementwise("i0", "_sg.bessel('i1', x)")
    _elementwise("j1", "(_sg.bessel('j0', x) - _sg.bessel('jv', 2, x)) / 2")
    _elementwise("i1", "(_sg.bessel('i0', x) + _sg.bessel('iv', 2, x)) / 2")
    defadjoint(sp.logsumexp, "a, axis=None, b=None, keepdims=False, return_sign=False",
               a="_sg.logsumexp_adjoint(g, a, ans, axis, keepdims, b)",
               b="_sg.unbroadcast(_sg.logsumexp_adjoint_b(g, a, ans, axis, keepdims, b), b)",
               tangent={"a": "_sg.logsumexp_tangent(a_dot, a, ans, axis, keepdims, b)"},
               name="scipy.special.logsumexp")
    defadjoint(sp.softmax, "x, axis=None", x="_sg.softmax_adjoint(g, ans, axis)",
               tangent={"x": "_sg.softmax_adjoint(x_dot, ans, axis)"},
               name="scipy.special.softmax")
    defadjoint(sp.log_softmax, "x, axis=None", x="_sg.log_softmax_adjoint(g, ans, axis)",
               tangent={"x": "_sg.log_softmax_tangent(x_dot, ans, axis)"},
               name="scipy.special.log_softmax")


if sp is not None:
    _register()
