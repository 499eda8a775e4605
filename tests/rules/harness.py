"""The rule-table test harness: input domains, test rows, and the finite-difference oracle.

A ``Row`` names the registered rule it covers, a small function that calls the primitive
(keyword arguments such as ``axis`` are written into it), and one input spec per
argument. Each mode a row lists is checked against central finite differences of the
plain NumPy function, never against srcgrad itself:

    reverse:  <vjp(W), v>  ==  d/de <W, f(x + e v)>  at e = 0
    forward:  <W, jvp(v)>  ==  the same directional derivative

with random cotangent ``W`` and direction ``v``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

import srcgrad as sg

REVERSE, FORWARD = "reverse", "forward"
BOTH = (REVERSE, FORWARD)
# The modes the suite checks today; a mode a row lists but that is not here is skipped.
CHECKED_MODES = BOTH


# -- input domains -----------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class In:
    """One argument: ``make(rng)`` draws it; ``diff`` says whether it is differentiated.

    Domains the complex rows reuse (``tests.rules.complex_rows``) say how: ``draw(rng,
    shape)`` draws independent elements of any shape (``shape`` is the row's; None for a
    Python number), and ``complex_make(rng)`` draws a complex argument where the plain
    real-part-plus-imaginary-part rule does not fit (Hermitian matrices...)."""
    make: object
    diff: bool = True
    label: str = ""
    draw: object = None
    shape: tuple | None = None
    complex_make: object = None


def _elementwise(draw, shape, label):
    return In(lambda rng: draw(rng, shape), label=label, draw=draw, shape=shape)


def uniform(low, high, *shape):
    return _elementwise(lambda rng, size: rng.uniform(low, high, size), shape,
                        f"U({low},{high}){shape}")


def normal(*shape):
    return _elementwise(lambda rng, size: rng.standard_normal(size), shape, f"N{shape}")


def positive(*shape):
    return uniform(0.5, 2.0, *shape)


def unit(*shape):
    """Inside (-1, 1), away from the ends (arcsin, arctanh...)."""
    return uniform(-0.8, 0.8, *shape)


def scalar(low=-1.0, high=1.0):
    """A Python float."""
    def draw(rng, size=None):
        value = rng.uniform(low, high, size)
        return float(value) if size is None else value
    return In(draw, label=f"float({low},{high})", draw=draw)


def distinct(*shape):
    """Values with well-separated ranks (sort, max, median: no ties near x)."""
    def make(rng):
        size = int(np.prod(shape))
        return rng.permutation(np.linspace(-2.0, 2.0, size)).reshape(shape) + \
            0.01 * rng.standard_normal(shape)
    return In(make, label=f"distinct{shape}")


def increasing(n):
    """Strictly increasing sample points 0, 1, 2... jittered (interpolation grids)."""
    return In(lambda rng: np.arange(n) + rng.uniform(-0.2, 0.2, n), label=f"increasing({n})")


def spd(n, batch=()):
    """A well-conditioned symmetric positive definite matrix (or a batch of them); its
    complex form is Hermitian positive definite."""
    def make(rng, kind=float):
        a = rng.standard_normal(batch + (n, n))
        if kind is complex:
            a = a + 1j * rng.standard_normal(batch + (n, n))
        return a @ np.conj(np.swapaxes(a, -1, -2)) / n + np.eye(n)
    return In(make, label=f"spd{batch + (n, n)}", complex_make=lambda rng: make(rng, complex))


def wellcond(*shape):
    """A square (or batched square) matrix comfortably far from singular."""
    def make(rng, kind=float):
        a = rng.standard_normal(shape)
        if kind is complex:
            a = a + 1j * rng.standard_normal(shape)
        return a + 3.0 * np.eye(shape[-1])
    return In(make, label=f"wellcond{shape}", complex_make=lambda rng: make(rng, complex))


def const(value):
    """A fixed, non-differentiated argument (indices, integer data, masks)."""
    return In(lambda rng: value, diff=False, label="const")


# -- rows ----------------------------------------------------------------------------------
@dataclasses.dataclass
class Row:
    name: str                 # the rule's registered name, e.g. "numpy.tanh"
    fn: object                # calls the primitive on the inputs
    inputs: tuple
    modes: tuple = BOTH
    rtol: float = 1e-5
    atol: float = 1e-6
    note: str = ""

    @property
    def wrt(self):
        return tuple(i for i, spec in enumerate(self.inputs) if spec.diff)

    def sample(self, rng):
        return [spec.make(rng) for spec in self.inputs]

    def label(self):
        shapes = ",".join(spec.label for spec in self.inputs)
        return f"{self.name}[{self.note or shapes}]"


def row(name, fn, *inputs, **options):
    return Row(name, fn, tuple(inputs), **options)


# -- the oracle ----------------------------------------------------------------------------
def random_like(value, rng):
    """A random cotangent (or direction) with ``value``'s structure."""
    if isinstance(value, (list, tuple)):
        return [random_like(item, rng) for item in value]
    kind = np.asarray(value).dtype.kind
    if kind not in "fc":
        return np.zeros(np.shape(value)) if np.ndim(value) else 0.0
    draw = rng.standard_normal(np.shape(value))
    if kind == "c":
        draw = draw + 1j * rng.standard_normal(np.shape(value))
    if np.ndim(value) or isinstance(value, np.ndarray):
        return draw
    return complex(draw) if kind == "c" else float(draw)


def pairing(w, y):
    """``Re <w, y>`` summed over a (possibly nested) output; the loss the oracle uses."""
    if isinstance(y, (list, tuple)):
        return sum(pairing(wi, yi) for wi, yi in zip(w, y))
    if np.asarray(y).dtype.kind not in "fc":
        return 0.0
    return float(np.real(np.sum(np.asarray(w) * np.asarray(y))))


def directional_fd(fn, args, index, v, w, eps=1e-6):
    plus, minus = list(args), list(args)
    x = args[index]
    plus[index], minus[index] = x + eps * v, x - eps * v
    return (pairing(w, fn(*plus)) - pairing(w, fn(*minus))) / (2 * eps)


def check_reverse(row_, rng):
    args = row_.sample(rng)
    wrt = row_.wrt
    vjp = sg.vjp(row_.fn, wrt=wrt if len(wrt) > 1 else wrt[0])
    value, backward = vjp(*args)
    expected = row_.fn(*args)
    probe = random_like(expected, np.random.default_rng(0))
    assert np.isclose(pairing(probe, value), pairing(probe, expected)), row_.label()
    w = random_like(value, rng)
    grads = backward(w)
    grads = grads if len(wrt) > 1 else (grads,)
    for index, grad in zip(wrt, grads):
        assert np.shape(grad) == np.shape(args[index]), (row_.label(), index)
        v = random_like(args[index], rng)
        numeric = directional_fd(row_.fn, args, index, v, w)
        analytic = float(np.real(np.sum(np.asarray(grad) * v)))
        tol = row_.rtol * max(abs(numeric), abs(analytic)) + row_.atol
        assert abs(numeric - analytic) <= tol, (
            f"{row_.label()} argument {index}: finite differences {numeric!r}, "
            f"reverse mode {analytic!r}")


CHECKS = {REVERSE: check_reverse}


def check_forward(row_, rng):
    """``<W, jvp(v)>`` against the same directional derivative, one argument at a time."""
    args = row_.sample(rng)
    for index in row_.wrt:
        v = random_like(args[index], rng)
        value, tangent = sg.jvp(row_.fn, wrt=index)(*args, v)
        w = random_like(value, rng)
        numeric = directional_fd(row_.fn, args, index, v, w)
        analytic = pairing(w, tangent)
        tol = row_.rtol * max(abs(numeric), abs(analytic)) + row_.atol
        assert abs(numeric - analytic) <= tol, (
            f"{row_.label()} argument {index}: finite differences {numeric!r}, "
            f"forward mode {analytic!r}")


CHECKS[FORWARD] = check_forward


def check_transposes(row_, rng):
    """``<W, jvp(v)>`` against ``<vjp(W), v>``, one argument at a time: the two modes'
    rules are each other's transposes (no finite differences, so tight tolerances)."""
    args = row_.sample(rng)
    for index in row_.wrt:
        v = random_like(args[index], rng)
        value, tangent = sg.jvp(row_.fn, wrt=index)(*args, v)
        w = random_like(value, rng)
        _, backward = sg.vjp(row_.fn, wrt=index)(*args)
        forward = pairing(w, tangent)
        reverse = float(np.real(np.sum(np.asarray(backward(w)) * v)))
        # (a row in single precision rounds its tangent and cotangent: its own tolerance)
        tight = 1e-7 if row_.rtol <= 1e-5 else row_.rtol * 1e-3
        assert np.isclose(forward, reverse, rtol=tight, atol=1e-9), (
            f"{row_.label()} argument {index}: forward <W, J v> = {forward!r}, "
            f"reverse <J^T W, v> = {reverse!r}")
