"""implicit_value_and_gradients on the variant that returns the Variables' cotangents
(every read a plain name, see eager.static): same answers as the general code, and the
general code whenever the variant cannot hold."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.compiler import reverse as compiler
from srcgrad.eager import static

A = sg.Variable(np.array([1.0, 2.0]))
B = sg.Variable(3.0)
FROZEN = sg.Variable(5.0, trainable=False)
SWAPPED = sg.Variable(np.array([1.0, 1.0]))
ALIAS = A


def two_globals(x):
    return np.sum(x * A) * B


def unconnected_and_frozen(x):
    unused = B * 0.0 > 1.0
    return np.sum(x * A) * FROZEN + float(unused)


def swapped(x):
    return np.sum(SWAPPED * x)


def aliased(x):
    return np.sum(A * x) + np.sum(ALIAS * x * x)


def in_a_loop(x, n):
    total = 0.0
    for _ in range(n):
        total = total + np.sum(A * x)
    return total


def _variant(fn):
    return static.implicit_variant(compiler.reverse_unit(fn, (), eager=True))


def test_variant_returns_the_variables_and_their_cotangents():
    variant = _variant(two_globals)
    assert variant.names == ("A", "B")
    assert "_sg.read_variable" not in variant.source
    assert "_sg.variable_cotangent" not in variant.source
    x = np.array([3.0, 4.0])
    value, pairs = sg.implicit_value_and_gradients(two_globals)(x)
    assert value == pytest.approx(33.0)
    assert [v for _, v in pairs] == [A, B]
    assert np.allclose(pairs[0][0], x * 3.0) and pairs[1][0] == pytest.approx(11.0)


def test_unconnected_read_is_none_and_non_trainable_is_skipped():
    pairs = sg.implicit_gradients(unconnected_and_frozen)(np.array([1.0, 1.0]))
    assert [v for _, v in pairs] == [A, B]
    assert np.allclose(pairs[0][0], 5.0) and pairs[1][0] is None


def test_rebinding_a_global_is_seen(monkeypatch):
    grad_fn = sg.implicit_gradients(swapped)
    x = np.array([2.0, 3.0])
    assert grad_fn(x)[0][1] is SWAPPED
    other = sg.Variable(np.array([0.0, 0.0]))
    monkeypatch.setitem(globals(), "SWAPPED", other)
    (grad, variable), = grad_fn(x)
    assert variable is other and np.allclose(grad, x)
    monkeypatch.setitem(globals(), "SWAPPED", np.array([1.0, 1.0]))   # no Variable now
    with pytest.raises(ValueError, match="No trainable variables were accessed"):
        grad_fn(x)


def test_one_variable_under_two_names_is_one_pair():
    x = np.array([2.0, 3.0])
    (grad, variable), = sg.implicit_gradients(aliased)(x)
    assert variable is A and np.allclose(grad, x + x * x)


def test_reads_in_a_loop_use_the_general_code():
    assert _variant(in_a_loop) is None
    (grad, variable), = sg.implicit_gradients(in_a_loop)(np.array([1.0, 2.0]), 3)
    assert variable is A and np.allclose(grad, [3.0, 6.0])


@sg.differentiable
def decorated(x):
    return np.sum(x * A) * B + np.sum(SWAPPED * x)


def test_tape_call_runs_the_split_variant():
    x = np.array([3.0, 4.0])
    with sg.GradientTape() as tape:
        y = decorated(x)
    backward = tape._pending.backward   # the call, not yet expanded into a node
    assert "_sg.variable_cotangent" not in backward.source
    ga, gb, gs = tape.gradient(y, [A, B, SWAPPED])
    assert np.allclose(ga, x * 3.0) and gb == pytest.approx(11.0) and np.allclose(gs, x)


def test_tape_variant_with_some_variables_unwatched():
    x = np.array([3.0, 4.0])
    with sg.GradientTape(watch_accessed_variables=False, persistent=True) as tape:
        tape.watch(B)
        y = decorated(x)
    assert tape.watched_variables() == (B,)
    for _ in range(2):
        ga, gb = tape.gradient(y, [A, B])
        assert ga is None and gb == pytest.approx(11.0)


def test_tape_variant_sees_a_rebound_global(monkeypatch):
    x = np.array([3.0, 4.0])
    other = sg.Variable(np.array([2.0, 2.0]))
    with sg.GradientTape() as tape:
        decorated(x)
    monkeypatch.setitem(globals(), "SWAPPED", other)
    with sg.GradientTape() as tape:
        y = decorated(x)
    assert np.allclose(tape.gradient(y, other), x)
    monkeypatch.setitem(globals(), "SWAPPED", np.array([1.0, 1.0]))
    with sg.GradientTape() as tape:
        y = decorated(x)
    assert tape.watched_variables() == (A, B)
    assert y.numpy() == pytest.approx(33.0 + 7.0)


def _closure_model():
    w = sg.Variable(np.array([1.0, 2.0]))

    def loss(x):
        return np.sum(w * x)

    def rebind(value):
        nonlocal w
        w = value

    return loss, rebind, w


def test_variant_reads_closure_cells_live():
    loss, rebind, w = _closure_model()
    grad_fn = sg.implicit_gradients(loss)
    x = np.array([3.0, 4.0])
    assert grad_fn(x)[0][1] is w
    other = sg.Variable(np.array([0.0, 0.0]))
    rebind(other)
    (grad, variable), = grad_fn(x)
    assert variable is other and np.allclose(grad, x)
    rebind(np.array([1.0, 1.0]))
    with pytest.raises(ValueError, match="No trainable variables were accessed"):
        grad_fn(x)


# -- a helper taking the Variables as arguments (inlined, so guarded) ----------------
def helper(a, b, x):
    return np.sum(np.tanh(x * a)) * b


def other_helper(a, b, x):
    return np.sum(np.sin(x * a) * b)


def passing(x):
    return helper(A, B, x)


@sg.differentiable
def decorated_passing(x):
    return helper(A, B, x) + np.sum(SWAPPED * x)


def _fd(function, x):
    """Central differences of ``function(x)`` in A's items and B (the oracle)."""
    a, b, eps = A.numpy().copy(), float(B.numpy()), 1e-6
    da = [(function(a + e * eps, b, x) - function(a - e * eps, b, x)) / (2 * eps)
          for e in np.eye(a.size)]
    return np.array(da), (function(a, b + eps, x) - function(a, b - eps, x)) / (2 * eps)


def test_variables_passed_to_a_helper_take_the_variant(monkeypatch):
    """The helper is inlined behind an entry guard: the variant keeps the guard, which
    raises ``StaleVariant`` where the general code hands over; once the helper is
    rebound, the general code (regenerated) answers, twice."""
    variant = _variant(passing)
    assert variant is not None and "raise _sg.StaleVariant" in variant.source
    assert "_sg.regenerated" not in variant.source
    x = np.array([0.3, -0.7])
    grad_fn = sg.implicit_value_and_gradients(passing)
    for function in (helper, other_helper):
        monkeypatch.setitem(globals(), "helper", function)
        for _ in range(2):
            value, ((ga, va), (gb, vb)) = grad_fn(x)
            want_a, want_b = _fd(function, x)
            assert (va, vb) == (A, B) and value == pytest.approx(function(
                A.numpy(), B.numpy(), x))
            assert np.allclose(ga, want_a, atol=1e-6) and gb == pytest.approx(want_b, abs=1e-6)


def test_tape_call_of_a_helper_takes_the_split_variant(monkeypatch):
    x = np.array([0.3, -0.7])
    for rebound, function in ((False, helper), (True, other_helper)):
        monkeypatch.setitem(globals(), "helper", function)
        for _ in range(2):
            with sg.GradientTape() as tape:
                y = decorated_passing(x)
            if not rebound:
                assert tape._pending is not None   # the split variant's pending call
                assert "StaleVariant" in tape._pending.backward.source
            ga, gb, gs = tape.gradient(y, [A, B, SWAPPED])
            want_a, want_b = _fd(function, x)
            assert np.allclose(ga, want_a, atol=1e-6) and gb == pytest.approx(want_b, abs=1e-6)
            assert np.allclose(gs, x)
