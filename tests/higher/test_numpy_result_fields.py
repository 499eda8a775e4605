"""The fields of NumPy's named-tuple results (``np.linalg.svd(a).S``, ``r[1]``, ``u, s, vh
= ...``) read every way, differentiated once, twice and three times in every composition
of ``tests.rules.orders``, against central finite differences of the plain function.

The programs are generated: each read pattern below is a template over a factorization's
two fields (their names, their positions, a phase-free function of each), so a pattern
is checked for every factorization. The sparse cotangent of such a result holds a field
at its name, its position or both (``runtime.slots`` states the convention); a wrong
transpose of a helper that converts between its forms gives a wrong number only at
order 2 or 3, which the planted tests show.

CI checks a deterministic sample (every pattern and every factorization, orders 1-3);
``--rule-orders-full`` checks every (pattern, factorization, order, composition).
"""

import zlib
from dataclasses import dataclass

import numpy as np
import pytest

import srcgrad as sg
from srcgrad import runtime
from srcgrad.rules import REGISTRY
from tests.higher.test_linalg_orders import diagonalizable, separated
from tests.rules.harness import In, row, wellcond
from tests.rules.orders import FIRST_ORDER_MODES, ORDER_MODES, check_order, hash_sample


@dataclass(frozen=True)
class Factorization:
    call: str          # the NumPy function
    fields: tuple      # (name, position, "phase-free function of it") for two fields
    count: int         # its result's length, for unpacking
    sample: object     # the input domain


def spread_singular(m, n):
    """``Q1 diag(n, ..., 1) Q2``: singular values 1 apart and away from 0, so that
    finite differences of the factors are accurate at third order."""
    def make(rng):
        q1 = np.linalg.qr(rng.standard_normal((m, n)))[0]
        q2 = np.linalg.qr(rng.standard_normal((n, n)))[0]
        return q1 * np.arange(n, 0.0, -1) @ q2
    return In(make, label=f"spread_singular{(m, n)}")


def _modulus2(z):
    """``|z|^2``: invariant to the phase (sign) of a singular or eigen vector."""
    return np.real(z * np.conj(z))


FACTORIZATIONS = {
    "svd": Factorization("np.linalg.svd", (("S", 1, "{}"), ("U", 0, "_modulus2({})")), 3,
                         spread_singular(3, 3)),
    "eigh": Factorization("np.linalg.eigh", (("eigenvalues", 0, "{}"),
                                             ("eigenvectors", 1, "_modulus2({})")), 2,
                          separated(3)),
    "slogdet": Factorization("np.linalg.slogdet", (("logabsdet", 1, "{}"),
                                                   ("sign", 0, "{} * 1.5")), 2, wellcond(3, 3)),
    "qr": Factorization("np.linalg.qr", (("R", 1, "{}"), ("Q", 0, "{}")), 2, spread_singular(4, 3)),
    # (np.linalg.eig's order may change within a finite difference's steps: functions
    # of its fields that do not depend on their order)
    "eig": Factorization("np.linalg.eig", (("eigenvalues", 0, "np.sum({} ** 3)"),
                                           ("eigenvectors", 1,
                                            "np.sum(_modulus2({}), axis=-1)")), 2,
                         diagonalizable(3)),
}

# Read patterns over a factorization's two fields: {n0}/{p0} and {n1}/{p1} their names
# and positions; t0 and t1 the phase-free functions of them the program returns.
PATTERNS = {
    "by name": "r = {call}(a)\n    return t0(r.{n0}), t1(r.{n1})",
    "by position": "r = {call}(a)\n    return t0(r[{p0}]), t1(r[{p1}])",
    "unpacked": "{names} = {call}(a)\n    return t0(f{p0}), t1(f{p1})",
    "one field both ways": "r = {call}(a)\n    return t0(r.{n0}) * t0(r[{p0}]) + t0(r.{n0})",
    "name and position": "r = {call}(a)\n    return t0(r.{n0}), t1(r[{p1}])",
    "position and name": "r = {call}(a)\n    return t0(r[{p0}]), t1(r.{n1})",
    "from a helper": "r = helper(a)\n    return t0(r[{p0}]) * t0(r.{n0}), t1(r.{n1})",
}


def _source(pattern, kind):
    """The program of ``pattern`` over ``kind``'s two fields, as source text."""
    f = FACTORIZATIONS[kind]
    (n0, p0, t0), (n1, p1, t1) = f.fields
    body = PATTERNS[pattern].format(call=f.call, n0=n0, p0=p0, n1=n1, p1=p1,
                                    names=", ".join(f"f{i}" for i in range(f.count)))
    return (f"def t0(z):\n    return {t0.format('z')}\n\n\n"
            f"def t1(z):\n    return {t1.format('z')}\n\n\n"
            f"def helper(a):\n    return {f.call}(a)\n\n\n"
            f"def program(a):\n    {body}\n")


def program(pattern, kind):
    """The generated function (its source registered with srcgrad, which reads it)."""
    namespace = {"np": np, "_modulus2": _modulus2}
    sg.exec_source(_source(pattern, kind), namespace)
    return row(f"{kind}[{pattern}]", namespace["program"], FACTORIZATIONS[kind].sample)


MODES = [(1, mode) for mode in FIRST_ORDER_MODES] + [
    (order, mode) for order, modes in ORDER_MODES.items() for mode in modes]
COMBOS = [(pattern, kind, order, mode) for pattern in PATTERNS for kind in FACTORIZATIONS
          for order, mode in MODES]


def _id(combo):
    pattern, kind, order, mode = combo
    return f"{kind}-{pattern.replace(' ', '_')}-order{order}-{mode}"


def _check(combo):
    pattern, kind, order, mode = combo
    check_order(program(pattern, kind), np.random.default_rng(zlib.crc32(_id(combo).encode())),
                0, order, mode)


# Every pattern at one composition of order 3 through reverse mode twice (where the
# wrong numbers were), and every factorization at one order and composition.
_THIRD = [c for c in COMBOS if c[3] in ("rev-rev-rev", "rev-fwd-rev")]
SAMPLE = list(dict.fromkeys(hash_sample(_THIRD, lambda c: c[0], _id)
                            + hash_sample(COMBOS, lambda c: c[1], _id)))


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_a_sample_of_fields_read_every_way(combo):
    _check(combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_read_pattern_factorization_order_and_composition(combo):
    _check(combo)


def test_the_programs_read_what_their_pattern_names():
    """The generator writes the reads each pattern names (a template that lost its
    ``r.S`` would check nothing)."""
    assert "t0(r.S) * t0(r[1]) + t0(r.S)" in _source("one field both ways", "svd")
    assert "return t0(f1), t1(f0)" in _source("unpacked", "svd")
    assert "return t0(r.eigenvalues), t1(r[1])" in _source("name and position", "eigh")
    assert "return z * 1.5" in _source("by name", "slogdet")


# Planted wrong transposes, each the form it had before: the cotangent passed on as it
# is, whatever form (NamedTuple, sparse dict by name, by position) its value has.
PLANTED = [
    (runtime.restructure, "by name", "svd", "rev-rev-rev"),
    (runtime.snapshot, "from a helper", "eigh", "rev-rev-rev"),
]


@pytest.mark.parametrize("helper, pattern, kind, mode", PLANTED,
                         ids=[f"{h.__name__}-{k}-{p}-{m}" for h, p, k, m in PLANTED])
def test_a_transpose_that_keeps_the_form_fails_at_order_three(monkeypatch, helper, pattern,
                                                               kind, mode):
    rule = REGISTRY.lookup(helper)
    monkeypatch.setitem(rule.adjoints, rule.params[0], "g")
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check_order(program(pattern, kind), np.random.default_rng(3), 0, 3, mode)
    finally:
        monkeypatch.undo()
        REGISTRY.changed()


# -- the rows' transposes, as linear maps: <G, A(du)> = <A^T(G), du> -----------------------
def _field(c, i, fields):
    """Field ``i`` of ``c``, a NamedTuple's cotangent in any form (a dict adds a field's
    name and position)."""
    if type(c) is dict:
        return sum(c[k] for k in (fields[i], i) if c.get(k) is not None)
    return c[i]


def _pair(a, b, form):
    """``<a, b>`` for two values in the form of the primal ``form``: a NamedTuple field by
    field, a dict key by key (a missing key zero), an array element by element."""
    if hasattr(form, "_fields"):
        return sum(np.sum(_field(a, i, form._fields) * _field(b, i, form._fields))
                   for i in range(len(form)))
    if type(form) is dict:
        return sum(np.sum(a[k] * b[k]) for k in a if k in b)
    return np.sum(a * b)


def _svd_fields():
    rng = np.random.default_rng(7)
    x = np.linalg.svd(rng.standard_normal((3, 3)))

    def draw(keys):
        return {k: rng.standard_normal(np.shape(x[k if type(k) is int else x._fields.index(k)]))
                for k in keys}
    return x, draw


def _transpose_cases():
    x, draw = _svd_fields()
    v = draw(("S", 1, "U"))                  # a sparse cotangent: S at both keys
    extra = draw(("S", 1, "U", 0, "Vh"))     # a dict's cotangent with keys v lacks
    both = draw((0, "U", 1))
    return [   # (helper, linear parameter, arguments, input form, output form, G)
        (runtime.restructure, {"v": v, "x": x}, v, x, both),
        (runtime.restructure_transpose, {"w": both, "v": v, "x": x}, both, v, extra),
        (runtime.at_keys_of, {"w": extra, "v": v}, extra, v, draw(("S", 1, "Vh"))),
        (runtime.snapshot, {"v": x}, x, {}, extra),
        (runtime.add_cotangents, {"a": x, "b": {1: 0.0 * x[1]}}, x, {}, extra),
        (runtime.cotangent_part, {"v": extra, "a": x, "total": v}, extra, {}, both),
        (runtime.cotangent_embedded, {"v": x, "a": x, "total": v}, x, {}, extra),
    ]


@pytest.mark.parametrize("case", range(len(_transpose_cases())))
def test_each_form_changing_row_has_its_transpose(case):
    """The row's reverse template is the transpose of the helper in its first parameter
    under each form's own pairing (a NamedTuple's cotangent by field, a dict's by key),
    for a sparse cotangent holding a field at its name and its position, and a dict's
    cotangent holding keys its dict lacks."""
    helper, args, form_in, form_out, cotangent = _transpose_cases()[case]
    rule = REGISTRY.lookup(helper)
    param = rule.params[0]
    rng = np.random.default_rng(case)
    du = (type(form_in)(*[rng.standard_normal(np.shape(f)) for f in form_in])
          if hasattr(form_in, "_fields") else
          {k: rng.standard_normal(np.shape(item)) for k, item in form_in.items()})
    out = helper(*[{**args, param: du}[name] for name in rule.params])
    transposed = eval(rule.adjoints[param], {"_sg": runtime, "np": np},
                      {**args, "g": cotangent, "ans": out})
    assert np.isclose(_pair(cotangent, out, form_out), _pair(transposed, du, form_in))
