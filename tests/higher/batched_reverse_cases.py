"""The batched reverse sweep (``compiler.reverse_batched``) on every rule row: cases and
the oracle, for ``test_batched_reverse``.

A case is a row of the rule tests (``tests.rules``) at a shape variant (the row's own
shapes; 0-d, size 1 and broadcast shapes for elementwise rows) and a dtype (float64,
float32, complex128 where the row is defined for complex). For k = 1, 2 and 7 rows of
random cotangents, each row of the batched sweep's result must equal the one-row backward
sweep's for that cotangent, the central difference of ``<w, f(x + e v)>`` and ``<w, J v>``
from forward mode (``<J^T w, v> = <w, J v>``), and a second call must give the same.
"""

from __future__ import annotations

import dataclasses
import inspect
import zlib

import numpy as np

import srcgrad as sg
from srcgrad.compiler.reverse_batched import batched_reverse_unit
from tests.rules import complex_rows
from tests.rules.harness import FORWARD, REVERSE, directional_fd, pairing, random_like
from tests.rules.rows import ROWS

KS = (1, 2, 7)
# Rows not drawn in float32: their primal needs float64 inputs.
_NO_FLOAT32 = {"numpy.lib.stride_tricks.as_strided": "its rows' byte strides are float64's",
               "scipy.stats.dirichlet.pdf": "SciPy checks the simplex to float64 precision",
               "scipy.stats.dirichlet.logpdf": "SciPy checks the simplex to float64 precision"}
VARIANTS = ("row", "0-d", "size 1", "broadcast")


@dataclasses.dataclass
class Case:
    row: object
    variant: str
    dtype: str    # "float64", "float32", "complex128"

    def label(self):
        return f"{self.row.label()}-{self.variant}-{self.dtype}"

    def seed(self):
        return zlib.crc32(self.label().encode())

    def sample(self, rng):
        shapes = complex_rows.Case(self.row, self.variant, REVERSE).shapes()
        args = []
        for spec, shape in zip(self.row.inputs, shapes):
            if not spec.diff:
                args.append(spec.make(rng))
            elif self.dtype == "complex128":
                args.append(_complex(spec, rng, shape))
            elif shape == "row":
                args.append(_cast(spec.make(rng), self.dtype))
            else:
                drawn = spec.draw(rng, shape if shape != () else (1,))
                drawn = np.asarray(drawn[0]) if shape == () else drawn
                args.append(_cast(drawn, self.dtype))
        assert len(args) == len(self.row.inputs), self.label()
        return args


def _complex(spec, rng, shape):
    if shape == () and spec.shape is None:
        return complex_rows.complex_input(spec, rng)
    if shape == ():
        return np.asarray(complex_rows.complex_input(spec, rng, (1,))[0])
    return complex_rows.complex_input(spec, rng, shape)


def _cast(x, dtype):
    if dtype == "float32" and isinstance(x, np.ndarray) and x.dtype.kind == "f":
        return x.astype(np.float32)
    return x


def _elementwise(row_):
    from srcgrad.rules import REGISTRY

    rule = REGISTRY.rows().get(row_.name)
    return rule is not None and rule.elementwise and row_.name.startswith(("numpy.", "scipy.")) \
        and all(spec.draw is not None for spec in row_.inputs)


def cases():
    complex_ok = {id(c.row) for c in complex_rows.cases(ROWS) if c.mode == REVERSE}
    out = []
    for row_ in ROWS:
        if REVERSE not in row_.modes:
            continue
        variants = VARIANTS if _elementwise(row_) else ("row",)
        if len(row_.inputs) > 3:   # (three broadcast shapes are drawn at most)
            variants = tuple(v for v in variants if v != "broadcast")
        for variant in variants:
            dtypes = ["float64"] + (["float32"] if row_.name not in _NO_FLOAT32 else []) \
                + (["complex128"] if id(row_) in complex_ok else [])
            out.extend(Case(row_, variant, dtype) for dtype in dtypes)
    return out


def names_of(fn, wrt):
    params = list(inspect.signature(fn).parameters)
    return tuple(params[i] for i in wrt)


def cotangents(value, k, rng):
    """``k`` random cotangents of ``value`` stacked on a trailing axis."""
    return np.stack([np.asarray(random_like(value, rng)) for _ in range(k)], axis=-1)


def check(case, ks=KS):
    """Check one case; returns "batched", or why the batched sweep does not apply."""
    row_, rng = case.row, np.random.default_rng(case.seed())
    args = case.sample(rng)
    unit = batched_reverse_unit(row_.fn, names_of(row_.fn, row_.wrt))
    if unit is None:
        return "no batched form"
    value, saved = unit.forward(*args)
    if not isinstance(value, (np.ndarray, np.generic, float, complex)):
        return "not an array output"
    _, backward = sg.vjp(row_.fn, wrt=row_.wrt)(*args)
    single = case.dtype != "float32"
    for k in ks:
        w = cotangents(value, k, rng)
        if np.asarray(value).dtype.kind != "c":
            w = w.real
        grads = unit.backward(saved, w)
        again = unit.backward(saved, w)
        for j in range(k):
            per_row = backward(w[..., j])
            for index, grad, grad2, expected in zip(row_.wrt, grads, again, per_row):
                got = np.asarray(grad)[..., j]
                assert got.shape == np.shape(args[index]), (case.label(), k, j)
                np.testing.assert_allclose(got, np.asarray(grad2)[..., j], rtol=0, atol=0)
                np.testing.assert_allclose(got, expected, rtol=1e-10 if single else 1e-5,
                                           atol=1e-12 if single else 1e-6,
                                           err_msg=f"{case.label()} k={k} row {j}")
        if single:
            _oracles(case, args, w[..., k - 1], [np.asarray(g)[..., k - 1] for g in grads], rng)
    return "batched"


def _oracles(case, args, w, grads, rng):
    """One row against central differences and forward mode's ``<w, J v>``."""
    row_ = case.row
    for index, grad in zip(row_.wrt, grads):
        directions = complex_rows.directions(args[index], rng) \
            if case.dtype == "complex128" else (random_like(args[index], rng),)
        for v in directions:
            analytic = float(np.real(np.sum(grad * v)))
            numeric = directional_fd(row_.fn, args, index, v, w)
            tol = row_.rtol * max(abs(numeric), abs(analytic)) + row_.atol
            assert abs(numeric - analytic) <= tol, (
                f"{case.label()} argument {index}: finite differences {numeric!r}, "
                f"batched reverse {analytic!r}")
            if FORWARD in row_.modes and case.dtype == "float64":
                tangent = sg.jvp(row_.fn, wrt=index)(*args, v)[1]
                forward = pairing(w, tangent)
                assert np.isclose(forward, analytic, rtol=1e-7, atol=1e-9), (
                    f"{case.label()} argument {index}: <w, J v> = {forward!r}, "
                    f"<J^T w, v> = {analytic!r}")
