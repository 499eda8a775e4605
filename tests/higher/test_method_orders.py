"""Array methods called on a value not proven an ndarray (``x.reshape(...)``,
``x.ravel()``, ``x.astype(int)``...: calls resolved when they run, ``_sg.dynamic_forward``
and ``_sg.dynamic_jvp``) at orders 2 and 3, in every composition of forward and reverse
mode (``tests.rules.orders.EVERY_MODE``: reverse directly over forward too, the gradient
of a jvp), real and complex, 0-d, size-1 and (2, 3) arrays, against central finite
differences of the program itself.

A method's integer, shape and empty arguments (``(20, 6)``, ``()``, the ``(None,)``
tangents of a call whose arguments carry none) are not differentiated: differentiated
again they were asked for a derivative and refused (NotDifferentiableArgumentError).
``--rule-orders-full`` checks every combination; CI one per composition (fixed hash)."""

import itertools

import numpy as np
import pytest

from tests.rules.orders import EVERY_MODE, composed, finite_difference


def reshape_tuple(x):
    return x.reshape((-1,))


def reshape_ints(x):
    return x.reshape(x.size, 1)


def reshape_list(x):
    return x.reshape([1, -1])


def ravel(x):
    return x.ravel()


def flatten(x):
    return x.flatten()


def squeeze(x):
    return x.squeeze()


def astype_same_kind(x):
    return x.astype(complex) if x.dtype.kind == "c" else x.astype(float)


def astype_int(x):   # an int array from x: no derivative through it
    return x * (np.real(x) * 0.0 + 3.0).astype(int)


def transpose(x):
    return x.transpose()


def sum_all(x):
    return x.sum(axis=None)


METHODS = (reshape_tuple, reshape_ints, reshape_list, ravel, flatten, squeeze,
           astype_same_kind, astype_int, transpose, sum_all)
SHAPES = ((), (1,), (2, 3))


def _program(method):
    def program(x):
        y = method(x)
        return np.sum(np.real(np.sin(y) * y))
    program.__name__ = f"{method.__name__}_of_x"
    return program


COMBOS = [(method, kind, shape, order, mode) for method in METHODS for kind in "fc"
          for shape in SHAPES for order, modes in EVERY_MODE.items() for mode in modes]


def _id(combo):
    method, kind, shape, order, mode = combo
    return f"{method.__name__}-{'complex' if kind == 'c' else 'real'}{shape}-order{order}-{mode}"


def check(method, kind, shape, order, mode):
    rng = np.random.default_rng(len(method.__name__) + order)
    x = rng.uniform(0.2, 1.2, shape)
    v = rng.standard_normal(shape)
    if kind == "c":
        x = x + 1j * rng.uniform(0.2, 1.2, shape)
        v = v + 1j * rng.standard_normal(shape)
    x, v = np.asarray(x), np.asarray(v)
    program = _program(method)
    numeric, rounding = finite_difference(program, x, v, order)
    for _ in range(2):   # called twice: the second call runs what the first compiled
        analytic = float(np.real(composed(program, x, v, mode)))
        tol = 1e-4 * max(abs(numeric), abs(analytic)) + 1e-6 + rounding
        assert abs(analytic - numeric) <= tol, (
            f"{_id((method, kind, shape, order, mode))}: finite differences {numeric!r}, "
            f"srcgrad {analytic!r}")


# CI: each composition once, on methods, kinds and shapes rotating through the lists
# (every method comes up), reverse over forward at order 2 for each method.
_MODES = [(order, mode) for order, modes in EVERY_MODE.items() for mode in modes]
SAMPLE = [(method, "fc"[i % 2], SHAPES[i % 3], *_MODES[i % len(_MODES)])
          for i, method in zip(range(len(_MODES)), itertools.cycle(METHODS))] + [
    (method, "f", (2, 3), 2, "rev-fwd") for method in METHODS[len(_MODES):]]


@pytest.mark.parametrize("combo", SAMPLE, ids=[_id(c) for c in SAMPLE])
def test_array_methods_at_orders_two_and_three(combo):
    check(*combo)


@pytest.mark.rule_orders_full
@pytest.mark.parametrize("combo", COMBOS, ids=[_id(c) for c in COMBOS])
def test_every_array_method_in_every_composition(combo):
    check(*combo)


def test_the_sample_covers_every_composition_and_method():
    assert {c[3:] for c in SAMPLE} == set(_MODES)
    assert {c[0] for c in SAMPLE} == set(METHODS)


def test_a_wrong_method_owner_row_fails_reverse_over_forward(monkeypatch):
    """``method_owner`` (``x.reshape``'s derivative is ``x``'s), read where the jvp of a
    jvp of ``x.reshape(...)`` is differentiated in reverse mode, off by 1%: the check
    fails."""
    from srcgrad import runtime
    from srcgrad.rules import REGISTRY

    rule = REGISTRY.lookup(runtime.method_owner)
    monkeypatch.setitem(rule.adjoints, "method", "1.01 * g")
    monkeypatch.setitem(rule.tangent, "method", "1.01 * method_dot")
    REGISTRY.changed()
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check(reshape_tuple, "f", (2, 3), 3, "rev-fwd-fwd")
    finally:
        monkeypatch.undo()
        REGISTRY.changed()


@pytest.mark.xfail(strict=True, raises=TypeError, reason="the receiver's cotangent of a "
                   "method read is added in place (_sg.add_attr), which a NumPy scalar's "
                   "cannot be")
def test_a_method_of_a_numpy_scalar_twice_in_reverse_mode():
    """``z.ravel()`` where ``z = np.cos(x) * x`` of a 0-d ``x`` is a NumPy scalar."""
    def program(x):
        z = np.cos(x) * x
        return np.sum(np.sin(z.ravel()) * x.sum())

    x, v = np.asarray(0.5), np.asarray(0.3)
    numeric, rounding = finite_difference(program, x, v, 2)
    assert abs(composed(program, x, v, "rev-rev") - numeric) <= 1e-6 + rounding


def test_shape_arguments_carry_no_derivative():
    """What a call through a value is asked to differentiate: not its ints, shapes,
    empty tuples or tuples of Nones; a tuple holding an array or a bound method is."""
    from srcgrad.compiler.dispatch import inert

    x = np.ones(3)
    for value in (3, (20, 6), [1, -1], (), (None,), {"axis": 0}, ((1, 2), None)):
        assert inert(value), value
    for value in (x, 1.5, (x,), (x.ravel, True), [0.5], {"w": x}):
        assert not inert(value), value
