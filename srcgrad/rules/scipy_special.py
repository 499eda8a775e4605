"""``scipy.special``, registered only when SciPy imports (it is an optional dependency).

SciPy's ufuncs do not say which module they live in, so every row names itself.
"""

try:
    import scipy.special as sp
except ImportError:  # pragma: no cover - exercised only without SciPy
    sp = None

from srcgrad.rules.registry import REGISTRY, defadjoint, defconstant, defelementwise

_SQRT_2PI = "np.sqrt(2 * np.pi)"


def _elementwise(name, *partials, params=None, refuses=()):
    defelementwise(getattr(sp, name), *partials, params=params, name=f"scipy.special.{name}",
                   refuses=refuses)


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
    _elementwise("j0", "-_sg.bessel('jv', 1, x)")
    _elementwise("y0", "-_sg.bessel('yv', 1, x)")
    _elementwise("i0", "_sg.bessel('iv', 1, x)")
    _elementwise("j1", "(_sg.bessel('jv', 0, x) - _sg.bessel('jv', 2, x)) / 2")
    _elementwise("i1", "(_sg.bessel('iv', 0, x) + _sg.bessel('iv', 2, x)) / 2")
    _register_more()
    defadjoint(sp.logsumexp, "a, axis=None, b=None, keepdims=False, return_sign=False",
               a="_sg.logsumexp_adjoint(g, a, ans, axis, keepdims, b)",
               b="_sg.unbroadcast(_sg.logsumexp_adjoint_b(g, a, ans, axis, keepdims, b), b)",
               tangent={"a": "_sg.logsumexp_tangent(a_dot, a, ans, axis, keepdims, b)",
                        "b": "_sg.logsumexp_tangent(b_dot, a, ans, axis, keepdims, None)"},
               name="scipy.special.logsumexp")
    defadjoint(sp.softmax, "x, axis=None", x="_sg.softmax_adjoint(g, ans, axis)",
               tangent={"x": "_sg.softmax_adjoint(x_dot, ans, axis)"},
               name="scipy.special.softmax")
    defadjoint(sp.log_softmax, "x, axis=None", x="_sg.log_softmax_adjoint(g, ans, axis)",
               tangent={"x": "_sg.log_softmax_tangent(x_dot, ans, axis)"},
               name="scipy.special.log_softmax")


def _register_more():
    """The rest of autograd's list (and a few neighbours): gamma and error functions,
    the normal distribution's functions, Bessel functions of any order."""
    _elementwise("psi", "_sg.polygamma(1, x)")
    _elementwise("multigammaln", "_sg.multidigamma(a, d)", None, params=("a", "d"))
    defconstant(sp.multigammaln, d="the dimension (an integer)")
    _elementwise("gammainc", None, "np.exp(-x + (a - 1) * np.log(x)) / _sg.gamma(a)",
                 params=("a", "x"), refuses=("a",))
    _elementwise("gammaincc", None, "-np.exp(-x + (a - 1) * np.log(x)) / _sg.gamma(a)",
                 params=("a", "x"), refuses=("a",))
    _elementwise("erfcx", "2 * x * ans - 2 / np.sqrt(np.pi)")
    _elementwise("ndtr", f"np.exp(-x ** 2 / 2) / {_SQRT_2PI}")
    _elementwise("log_ndtr", f"np.exp(-x ** 2 / 2 - ans) / {_SQRT_2PI}")
    _elementwise("ndtri", f"{_SQRT_2PI} * np.exp(ans ** 2 / 2)")
    _elementwise("y1", "(_sg.bessel('yv', 0, x) - _sg.bessel('yv', 2, x)) / 2")
    for name, lower in (("jv", "jv"), ("jn", "jv"), ("yv", "yv"), ("yn", "yn")):
        _elementwise(name, None, f"(_sg.bessel('{lower}', v, x, -1) - "
                     f"_sg.bessel('{lower}', v, x, 1)) / 2", params=("v", "x"),
                     refuses=("v",))
    _elementwise("iv", None, "(_sg.bessel('iv', v, x, -1) + _sg.bessel('iv', v, x, 1)) / 2",
                 params=("v", "x"), refuses=("v",))
    # ive(v, z) = iv(v, z) exp(-|Re z|): holomorphic times a function of Re z, so the
    # second term pairs with Re(dz) only (the two agree for real z).
    _ive_holomorphic = "(_sg.bessel('ive', v, x, -1) + _sg.bessel('ive', v, x, 1)) / 2"
    _ive_real = "np.sign(np.real(x)) * ans"
    defadjoint(sp.ive, "v, x", broadcasts=True, refuses=("v",), name="scipy.special.ive",
               x=f"g * {_ive_holomorphic} - np.real(g * {_ive_real})",
               tangent={"x": f"x_dot * {_ive_holomorphic} - {_ive_real} * np.real(x_dot)"})
    _elementwise("kv", None, "-(_sg.bessel('kv', v, x, -1) + _sg.bessel('kv', v, x, 1)) / 2",
                 params=("v", "x"), refuses=("v",))
    _elementwise("i0e", "_sg.bessel('ive', 1, x) - np.sign(x) * ans")
    _elementwise("i1e", "(_sg.bessel('ive', 0, x) + _sg.bessel('ive', 2, x)) / 2 "
                 "- np.sign(x) * ans")
    _elementwise("k0", "-_sg.bessel('kv', 1, x)")
    _elementwise("k1", "-(_sg.bessel('kv', 0, x) + _sg.bessel('kv', 2, x)) / 2")
    _elementwise("expm1", "ans + 1")
    _elementwise("log1p", "1 / (1 + x)")
    _elementwise("exprel", "_sg.exprel_partial(x, ans)")
    _elementwise("betainc", None, None, "np.exp((a - 1) * np.log(x) + (b - 1) * np.log1p(-x)"
                 " - _sg.betaln(a, b))", params=("a", "b", "x"), refuses=("a", "b"))
    _elementwise("zeta", None, "-x * _sg.zeta(x + 1, q)", params=("x", "q"),
                 refuses=("x",))
    _elementwise("boxcox", "x ** (lmbda - 1)", None, params=("x", "lmbda"), refuses=("lmbda",))
    _elementwise("huber", None, "np.clip(r, -delta, delta)", params=("delta", "r"),
                 refuses=("delta",))
    REGISTRY.add_nondiff(sp.gammasgn, "scipy.special.gammasgn")


if sp is not None:
    _register()
