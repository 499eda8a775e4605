"""The tape's direct path: one call of a compiled function, its result the target, the
Variables it read the sources. Its gradients are the generated backward's, with no
sweep; every other case goes through the sweep with the same answers."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.eager.tape import GradientTape

w = sg.Variable(np.array([0.5, -1.0, 2.0]))
c = sg.Variable(0.25)
frozen = sg.Variable(3.0, trainable=False)
alias = w
X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])


@sg.differentiable
def loss(x):
    return np.sum(np.tanh(x @ w + c) ** 2)


@sg.differentiable
def scaled(x):
    return np.sum(x @ w) * frozen


@sg.differentiable
def with_constant_read(x):
    return np.sum(x @ w) + sg.stop_gradient(c)


@sg.differentiable
def aliased(x):
    return np.sum(x @ w) + np.sum(x @ alias)


def closed_form(w, c, x):
    """(d/dw, d/dc) of ``sum(tanh(x @ w + c) ** 2)``, derived by hand (the oracle)."""
    t = np.tanh(x @ w + c)
    dz = 2 * t * (1 - t ** 2)
    return x.T @ dz, np.sum(dz)


EXPECTED = closed_form(w.numpy(), c.numpy(), X)


@pytest.fixture
def no_sweep(monkeypatch):
    """Fail if the general sweep runs (the direct path should answer)."""
    def sweep(*args):
        raise AssertionError("the general sweep ran")
    monkeypatch.setattr(GradientTape, "_sweep", sweep)


def test_direct_path_gives_the_generated_gradients(no_sweep):
    with sg.GradientTape() as tape:
        value = loss(X)
    dw, dc = tape.gradient(value, [w, c])
    np.testing.assert_allclose(dw, EXPECTED[0])
    assert dw.shape == (3,) and np.shape(dc) == ()
    np.testing.assert_allclose(dc, EXPECTED[1])
    assert tape.watched_variables() == (w, c)


@pytest.mark.parametrize("sources, pick", [
    ((c, w), lambda g: (g[1], g[0])),
    (w, lambda g: g[0]),
    ([c], lambda g: [g[1]]),
    ({"b": c, "a": w}, lambda g: {"a": g[0], "b": g[1]}),
    ([[w], (c,)], lambda g: [[g[0]], (g[1],)]),
])
def test_subsets_reorderings_and_structures(no_sweep, sources, pick):
    with sg.GradientTape() as tape:
        value = loss(X)
    grads = tape.gradient(value, sources)
    expected = pick(list(EXPECTED))
    assert type(grads) is type(expected)
    for got, want in zip(sg.eager.structure.flatten(grads),
                         sg.eager.structure.flatten(expected), strict=True):
        np.testing.assert_allclose(got, want)


def test_persistent_tape_answers_again_and_with_weights():
    with sg.GradientTape(persistent=True) as tape:
        value = loss(X)
    first = tape.gradient(value, [w, c])
    second = tape.gradient(value, [w, c])
    weighted = tape.gradient(value, [w, c], output_gradients=2.0)
    for a, b, d, e in zip(first, second, weighted, EXPECTED):
        np.testing.assert_allclose(a, e)
        np.testing.assert_allclose(b, e)
        np.testing.assert_allclose(d, 2 * e)


def test_second_call_on_a_non_persistent_tape_raises():
    with sg.GradientTape() as tape:
        value = loss(X)
    tape.gradient(value, [w, c])
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used"):
        tape.gradient(value, [w, c])
    assert tape.watched_variables() == (w, c)


def test_gradient_inside_the_context():
    with sg.GradientTape() as tape:
        value = loss(X)
        dw = tape.gradient(value, w)
        later = loss(X)   # no longer recorded
    np.testing.assert_allclose(dw, EXPECTED[0])
    assert tape._nodes == [] and float(later) == float(value)
    with sg.GradientTape(persistent=True) as tape:
        value = loss(X)
        dw = tape.gradient(value, w)   # recorded by the tape itself: the sweep
    np.testing.assert_allclose(np.asarray(dw), EXPECTED[0])


def test_source_not_read_and_unconnected_zero():
    other = sg.Variable(np.ones(2))
    with sg.GradientTape(persistent=True) as tape:
        tape.watch(other)
        value = loss(X)
    assert tape.gradient(value, [w, other])[1] is None
    zeros = tape.gradient(value, [other, c], unconnected_gradients="zero")
    np.testing.assert_array_equal(zeros[0], np.zeros(2))
    np.testing.assert_allclose(zeros[1], EXPECTED[1])


def test_variable_read_without_a_derivative():
    with sg.GradientTape(persistent=True) as tape:
        value = with_constant_read(X)
    assert tape.gradient(value, c) is None
    assert tape.gradient(value, c, unconnected_gradients="zero") == 0.0
    np.testing.assert_allclose(tape.gradient(value, w), X.sum(axis=0))


def test_watched_and_unwatched_variables():
    with sg.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(c)
        value = loss(X)
    grads = tape.gradient(value, [w, c])
    assert grads[0] is None
    np.testing.assert_allclose(grads[1], EXPECTED[1])
    with sg.GradientTape(watch_accessed_variables=False) as tape:
        value = loss(X)
    assert tape.gradient(value, [w, c]) == [None, None]
    with sg.GradientTape() as tape:
        value = scaled(X)
    assert tape.watched_variables() == (w,)
    dw, dfrozen = tape.gradient(value, [w, frozen])
    np.testing.assert_allclose(dw, 3.0 * X.sum(axis=0))
    assert dfrozen is None


def test_one_variable_under_two_names():
    with sg.GradientTape() as tape:
        value = aliased(X)
    np.testing.assert_allclose(tape.gradient(value, w), 2 * X.sum(axis=0))


def test_target_computed_from_the_result_and_several_calls():
    with sg.GradientTape(persistent=True) as tape:
        value = loss(X)
        doubled = value * 2.0
        both = loss(X) + loss(2 * X)
    np.testing.assert_allclose(tape.gradient(doubled, w), 2 * EXPECTED[0])
    expected = EXPECTED[0] + closed_form(w.numpy(), c.numpy(), 2 * X)[0]
    np.testing.assert_allclose(tape.gradient(both, w), expected)
    np.testing.assert_allclose(tape.gradient([value], w), EXPECTED[0])


def test_nested_tapes_run_per_operation():
    with sg.GradientTape() as outer:
        with sg.GradientTape() as inner:
            value = loss(X)
        dc = inner.gradient(value, c)
    assert len(inner._nodes) == 0 and len(outer._nodes) > 1
    np.testing.assert_allclose(np.asarray(dc), EXPECTED[1])
    d2c = outer.gradient(dc, c)
    step = 1e-5
    numeric = (closed_form(w.numpy(), c.numpy() + step, X)[1] -
               closed_form(w.numpy(), c.numpy() - step, X)[1]) / (2 * step)
    np.testing.assert_allclose(d2c, numeric, rtol=1e-5)


def test_a_second_tape_around_the_gradient_call():
    with sg.GradientTape() as tape:
        value = loss(X)
    with sg.GradientTape() as outer:
        dw = tape.gradient(value, w)   # another tape records: the sweep, on Tensors
    np.testing.assert_allclose(np.asarray(dw), EXPECTED[0])
    assert outer.watched_variables() == ()


def test_pending_call_expands_for_later_operations_and_queries():
    """The one call is kept unexpanded; an operation on its result, a ``watch``, a
    query or a jacobian expands it, and the answers are the sweep's."""
    with sg.GradientTape(persistent=True) as tape:
        value = loss(X)
        assert tape.watched_variables() == (w, c)   # (a query expands the call)
        doubled = value * 2.0
    dw, dc = tape.gradient(doubled, [w, c])
    np.testing.assert_allclose(dw, 2 * EXPECTED[0])
    np.testing.assert_allclose(dc, 2 * EXPECTED[1])
    (jw,) = tape.jacobian(value, [w])
    np.testing.assert_allclose(jw, EXPECTED[0])


def test_non_persistent_tape_still_lists_its_variables_after_the_direct_gradient():
    with sg.GradientTape() as tape:
        value = loss(X)
    tape.gradient(value, [w, c])
    assert tape._pending.saved is None   # the saved values are released
    assert tape.watched_variables() == (w, c)


def test_variable_trainable_is_fixed_at_creation():
    with pytest.raises(AttributeError):
        frozen.trainable = True
    with sg.GradientTape() as tape:
        value = scaled(X)
    assert tape.gradient(value, [frozen]) == [None]
