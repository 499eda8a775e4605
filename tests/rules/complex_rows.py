"""Every rule row again with complex inputs, where the function is defined for them.

A row's differentiated arguments are drawn complex: a domain that draws independent
elements (``normal``, ``uniform``, ``scalar``...) keeps its real part and gets an imaginary
part in (-0.5, 0.5), which stays off every branch cut the rows' real domains avoid (NumPy
puts its cuts on the real or imaginary axis, outside the principal domain); a matrix
domain says how it is drawn complex (``spd``: Hermitian positive definite). Elementwise
rows are also drawn at 0-d, size 1 and broadcast shapes.

The oracle is autograd's convention for a function of complex inputs, viewed as the
real-linear map R^2n -> R^2m it is: a cotangent ``W`` of a complex output ``y`` pairs as
``Re <W, dy> = Re sum(W * dy)`` (no conjugate), and the gradient ``G`` of a complex input
``z`` is what makes ``d/de L(z + e v) = Re sum(G * v)`` for every direction ``v``. For
``v`` real that reads dL/dx, for ``v = i u`` it reads dL/dy, so ``G = conj(dL/dx + i dL/dy)``
(``|z|**2`` gives ``2 conj(z)``). Each differentiated argument is checked along a random
real direction and a random imaginary one, separately:

    reverse:  Re sum(vjp(W) * v)   ==  d/de Re <W, f(z + e v)>  at e = 0
    forward:  Re <W, jvp(v)>       ==  the same central difference

and a real output's tangent is real (its imaginary part would leak into later complex
arithmetic unseen by a real ``W``).
"""

from __future__ import annotations

import dataclasses
import zlib

import numpy as np

import srcgrad as sg
from srcgrad.rules import REGISTRY
from tests.rules.harness import FORWARD, REVERSE, In, Row, directional_fd, pairing, random_like

IMAG = 0.5      # imaginary parts are drawn in (-IMAG, IMAG)

# Rows whose function is not defined for complex numbers, or is defined through an
# ordering or a real-only formula that has no complex derivative to check. Every other
# row whose domains have a complex form is checked; ``test_complex_rules`` proves that
# the functions said to raise do raise for complex input.
RAISES = "NumPy or SciPy raises for complex input"
_ORDERING = "orders its inputs: complex numbers compare lexicographically, no derivative"
_ORDERED = ("numpy.maximum", "numpy.minimum", "numpy.fmax", "numpy.fmin", "numpy.clip",
            "numpy.max", "numpy.min", "numpy.amax", "numpy.amin", "numpy.nanmax",
            "numpy.nanmin", "numpy.ptp", "numpy.median", "numpy.quantile", "numpy.percentile",
            "numpy.sort", "numpy.partition", "builtins.max (two arguments)",
            "builtins.min (two arguments)")
_RAISING = (
    "numpy.fabs numpy.remainder numpy.fmod numpy.arctan2 numpy.hypot numpy.logaddexp "
    "numpy.logaddexp2 numpy.cbrt numpy.deg2rad numpy.rad2deg numpy.radians numpy.degrees "
    "numpy.heaviside numpy.copysign numpy.bincount numpy.fft.rfft numpy.fft.rfft2 "
    "numpy.fft.rfftn scipy.integrate.odeint builtins.float "
    "scipy.special.beta scipy.special.betainc scipy.special.betaln scipy.special.boxcox "
    "scipy.special.entr scipy.special.erfcinv scipy.special.erfinv scipy.special.expit "
    "scipy.special.exprel scipy.special.gammainc scipy.special.gammaincc "
    "scipy.special.gammaln scipy.special.i0 scipy.special.i0e scipy.special.i1 "
    "scipy.special.i1e scipy.special.j0 scipy.special.j1 scipy.special.k0 scipy.special.k1 "
    "scipy.special.log_expit scipy.special.logit scipy.special.multigammaln "
    "scipy.special.ndtri scipy.special.polygamma scipy.special.y0 scipy.special.y1 "
    "scipy.special.yn scipy.special.zeta").split()
REAL_ONLY = {**dict.fromkeys(_ORDERED, _ORDERING), **dict.fromkeys(_RAISING, RAISES)}
_REAL_PREFIXES = {
    "math.": "the math module is real: complex input raises",
    "scipy.stats.": "a distribution on the real line: SciPy computes it with real-only "
                    "steps (|x|, comparisons, casts), not as a complex function",
}
# Single rows (by label): an argument that must be real, or a domain with no complex form.
REAL_ONLY_ROWS = {
    "numpy.interp[x]": RAISES,
    "numpy.interp[xp]": "sample points are real",
    "numpy.trapezoid[sample points]": "sample points are real",
    "numpy.fft.irfft[complex filter]": "composed with rfft, which " + RAISES,
    "numpy.fft.irfft2[N(4, 4)]": "composed with rfft2, which " + RAISES,
    "scipy.linalg.solve[transposed]": RAISES,
    "scipy.special.huber[distinct(5,)]": "a piecewise real function (clip)",
    "numpy.full_like[float(-1.0,1.0),const]": "fills a real array (NumPy casts a complex "
                                              "fill value to it)",
    "numpy.linalg.eigvals[complex]": "a real matrix with complex eigenvalues (EXTRA_ROWS "
                                     "has a complex one)",
    "numpy.float64[float(-1.0,1.0)]": RAISES,
    "numpy.float32[N(2,)]": "a cast to a real type drops the imaginary part (NumPy warns)",
    "numpy.longdouble[N(2,)]": "a cast to a real type drops the imaginary part (NumPy warns)",
    "numpy.lib.stride_tricks.as_strided[N(6,)]": "its strides are bytes of a float64",
    "numpy.lib.stride_tricks.as_strided[2-d patches]": "its strides are bytes of a float64",
}


def real_only(row_):
    """Why ``row_`` has no complex check, or None."""
    for prefix, why in _REAL_PREFIXES.items():
        if row_.name.startswith(prefix):
            return why
    return REAL_ONLY.get(row_.name) or REAL_ONLY_ROWS.get(row_.label())


def complex_input(spec: In, rng, shape="row"):
    """``spec``'s argument drawn complex (at ``shape`` for elementwise domains)."""
    if spec.complex_make is not None and shape == "row":
        return spec.complex_make(rng)
    size = spec.shape if shape == "row" else shape
    real = spec.draw(rng, size)
    imag = rng.uniform(-IMAG, IMAG, size)
    return complex(real, imag) if size is None else real + 1j * imag


def can_be_complex(spec: In):
    return not spec.diff or spec.draw is not None or spec.complex_make is not None


# -- cases -------------------------------------------------------------------------------
@dataclasses.dataclass
class Case:
    row: Row
    variant: str          # "row" (the row's own shapes), "0-d", "size 1", "broadcast"
    mode: str

    def shapes(self):
        n = len(self.row.inputs)
        return {"row": ["row"] * n, "0-d": [()] * n, "size 1": [(1,)] * n,
                "broadcast": [(3, 1), (1, 4), (4,)][:n] if n > 1 else [(2, 3)]}[self.variant]

    def sample(self, rng):
        args = []
        for spec, shape in zip(self.row.inputs, self.shapes()):
            if not spec.diff:
                args.append(spec.make(rng))
            elif shape == () and spec.shape is None:      # a Python number stays one
                args.append(complex_input(spec, rng))
            elif shape == ():
                args.append(np.asarray(complex_input(spec, rng, (1,))[0]))
            else:
                args.append(complex_input(spec, rng, shape))
        return args

    def label(self):
        return f"{self.row.label()}-complex-{self.variant}-{self.mode}"

    def seed(self):
        return zlib.crc32(self.label().encode())


def _variants(row_):
    rule = REGISTRY.rows().get(row_.name)
    shaped = (rule is not None and rule.elementwise
              and all(spec.draw is not None for spec in row_.inputs))
    return ("row", "0-d", "size 1", "broadcast") if shaped else ("row",)


def cases(rows):
    """Every (row, shape variant, mode) with complex inputs; rows not defined for complex
    are left out by name (``real_only``)."""
    out = []
    for row_ in rows:
        if real_only(row_) or not all(can_be_complex(s) for s in row_.inputs):
            continue
        for variant in _variants(row_):
            out.extend(Case(row_, variant, mode) for mode in row_.modes
                       if mode in (REVERSE, FORWARD))
    return out


def undeclared(rows):
    """Rows with a domain that has no complex form and no reason in ``REAL_ONLY_ROWS``
    (a new row must say how it is drawn complex, or why it is not)."""
    return sorted({r.label() for r in rows if not real_only(r)
                   and not all(can_be_complex(s) for s in r.inputs)})


# -- the oracle --------------------------------------------------------------------------
def directions(x, rng):
    """A random real direction and a random imaginary one, shaped like ``x``."""
    real, imag = rng.standard_normal(np.shape(x)), 1j * rng.standard_normal(np.shape(x))
    if not isinstance(x, np.ndarray):
        return complex(real), complex(imag)
    return real, imag


def _close(numeric, analytic, row_, what):
    tol = row_.rtol * max(abs(numeric), abs(analytic)) + row_.atol
    assert abs(numeric - analytic) <= tol, (
        f"{what}: finite differences {numeric!r}, srcgrad {analytic!r}")


def check_reverse(case):
    row_, rng = case.row, np.random.default_rng(case.seed())
    args = case.sample(rng)
    wrt = row_.wrt
    vjp = sg.vjp(row_.fn, wrt=wrt if len(wrt) > 1 else wrt[0])
    value, backward = vjp(*args)
    w = random_like(value, rng)
    probe = pairing(w, row_.fn(*args))
    assert np.isclose(pairing(w, value), probe), f"{case.label()}: value"
    grads = backward(w)
    again = vjp(*args)[1](w)                     # a second call, through the caches
    grads, again = (grads, again) if len(wrt) > 1 else ((grads,), (again,))
    for index, grad, grad2 in zip(wrt, grads, again):
        assert np.shape(grad) == np.shape(args[index]), f"{case.label()}: shape of {index}"
        assert np.allclose(grad, grad2), f"{case.label()}: second call"
        for kind, v in zip(("real", "imaginary"), directions(args[index], rng)):
            numeric = directional_fd(row_.fn, args, index, v, w)
            analytic = float(np.real(np.sum(np.asarray(grad) * v)))
            _close(numeric, analytic, row_, f"{case.label()} argument {index}, {kind} "
                                            "direction")


def check_forward(case):
    row_, rng = case.row, np.random.default_rng(case.seed())
    args = case.sample(rng)
    for index in row_.wrt:
        jvp = sg.jvp(row_.fn, wrt=index)
        for kind, v in zip(("real", "imaginary"), directions(args[index], rng)):
            value, tangent = jvp(*args, v)
            w = random_like(value, rng)
            numeric = directional_fd(row_.fn, args, index, v, w)
            _close(numeric, pairing(w, tangent), row_,
                   f"{case.label()} argument {index}, {kind} direction")
            if not _is_complex(value):
                assert not np.any(np.imag(_flat(tangent))), (
                    f"{case.label()} argument {index}: a real output has a complex tangent")


def _flat(value):
    if isinstance(value, (list, tuple)):
        return np.concatenate([np.ravel(_flat(item)) for item in value] or [np.zeros(0)])
    return np.ravel(np.asarray(value))


def _is_complex(value):
    if isinstance(value, (list, tuple)):
        return any(_is_complex(item) for item in value)
    return np.iscomplexobj(value)


CHECKS = {REVERSE: check_reverse, FORWARD: check_forward}


def check(case):
    CHECKS[case.mode](case)


# Rows that only complex input reaches (the real rows compose these with a real step).
def _extra_rows():
    from tests.rules.harness import normal, row, wellcond

    fft = np.fft
    return [
        row("numpy.fft.irfft2", lambda a: fft.irfft2(a, s=(3, 4)), normal(3, 3),
            note="complex spectrum"),
        row("numpy.fft.irfft", lambda a: fft.irfft(a, axis=0), normal(4, 2),
            note="complex spectrum"),
        row("numpy.linalg.eigvals", lambda a: np.linalg.eigvals(a), wellcond(3, 3),
            note="complex matrix"),
        row("numpy.linalg.eig", lambda a: np.abs(np.linalg.eig(a)[1]), wellcond(3, 3),
            note="complex matrix, vectors"),
        row("numpy.interp", lambda fp: np.interp(np.array([0.2, 1.5, 2.5]),
                                                 np.array([0.0, 1.0, 3.0]), fp),
            normal(3), note="complex fp"),
        row("numpy.angle", lambda z: np.angle(z, deg=True), normal(3), note="degrees"),
        row("numpy.real", lambda z: np.real(z) * np.imag(z), normal(3), note="parts"),
        row("numpy.conjugate", lambda z: np.conj(z), normal(2, 2), note="complex"),
    ]


EXTRA_ROWS = _extra_rows()


# -- orders 2 and 3 ------------------------------------------------------------------------
def check_order(case, index, order, mode, direction):
    """``D^k L(z)[v, ..., v]`` of ``L(z) = Re <W, f(..., z, ...)>`` through the composition
    ``mode`` (``tests.rules.orders``, or ``rev-fwd``: reverse over forward) against a
    central difference of ``t -> L(z + t v)``, for ``v`` an imaginary or a general complex
    direction."""
    from tests.rules.orders import composed, finite_difference, make_loss, precision

    row_, rng = case.row, np.random.default_rng(case.seed())
    args = case.sample(rng)
    value = row_.fn(*args)
    w = random_like(value, rng)
    v = random_like(args[index], rng)
    if direction == "imaginary":
        v = 1j * np.imag(v) if isinstance(v, np.ndarray) else complex(0, np.imag(v))
    numeric, rounding = finite_difference(make_loss(row_.fn, args, index, w), args[index],
                                          v, order, precision(value))
    loss = make_loss(row_.fn, args, index, w)
    if mode == "rev-fwd":      # reverse over forward: <grad(y -> jvp(L)(y, v)[1])(z), v>
        tangent = sg.jvp(loss)

        def along(y):
            return tangent(y, v)[1]
        analytic = float(np.sum(np.real(sg.grad(along)(args[index]) * v)))
    else:
        analytic = float(np.real(composed(loss, args[index], v, mode)))
    tol = 1e-4 * max(abs(numeric), abs(analytic)) + 1e-6 + rounding
    assert abs(numeric - analytic) <= tol, (
        f"{case.label()} argument {index}, order {order} ({mode}, {direction} direction): "
        f"finite differences {numeric!r}, srcgrad {analytic!r}")
