"""GradientTape: TF's behaviour and messages; gradients against closed forms."""

import numpy as np
import pytest

import srcgrad as sg


def test_watch_a_constant_and_sources_structure():
    x, y = sg.constant(2.0), sg.constant(3.0)
    with sg.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = x * x * y
    assert tape.gradient(z, x) == 12.0
    assert tape.gradient(z, [x, y]) == [12.0, 4.0]
    assert tape.gradient(z, (x, y)) == (12.0, 4.0)
    assert tape.gradient(z, {"a": x, "b": y}) == {"a": 12.0, "b": 4.0}


def test_unwatched_constant_gives_none_or_zeros():
    x, c = sg.constant(2.0), sg.constant(5.0)
    with sg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        z = x * c
    assert tape.gradient(z, c) is None
    assert tape.gradient(z, c, unconnected_gradients="zero") == 0.0
    assert tape.gradient(z, c, unconnected_gradients=sg.eager.UnconnectedGradients.ZERO) == 0.0
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'bogus'"):
        tape.gradient(z, c, unconnected_gradients="bogus")


def test_trainable_variables_are_watched_automatically():
    w, frozen = sg.Variable(3.0), sg.Variable(4.0, trainable=False)
    with sg.GradientTape() as tape:
        y = w * frozen
    assert tape.watched_variables() == (w,)
    assert tape.gradient(y, [w, frozen]) == [4.0, None]


def test_watch_accessed_variables_false():
    w, v = sg.Variable(3.0), sg.Variable(4.0)
    with sg.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v)
        y = w * v
    assert tape.gradient(y, [w, v]) == [None, 3.0]


def test_watch_rejects_plain_floats():
    with sg.GradientTape() as tape:
        with pytest.raises(ValueError, match="Passed in object 3.0 of type 'float', not "
                                             "tf.Tensor or tf.Variable or ExtensionType."):
            tape.watch(3.0)


def test_non_persistent_tape_answers_once():
    x = sg.constant(2.0)
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x) == 4.0
    with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used "
                                           "to compute one set of gradients"):
        tape.gradient(y, x)


def test_target_none_and_list_of_targets():
    x = sg.constant(2.0)
    with sg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a, b = x * x, x * 3.0
    assert tape.gradient([a, b], x) == 7.0
    with pytest.raises(TypeError, match="Argument `target` should be a list or nested "
                                        "structure of Tensors"):
        tape.gradient(None, x)


def test_output_gradients_weight_a_vector_target():
    x = sg.constant(np.array([1.0, 2.0]))
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = x ** 2
    g = tape.gradient(y, x, output_gradients=np.array([1.0, 10.0]))
    assert np.allclose(g, [2.0, 40.0])


def test_stop_recording_and_its_errors():
    x = sg.constant(2.0)
    tape = sg.GradientTape()
    with pytest.raises(RuntimeError, match="Trying to stop recording a tape which is not "
                                           "recording."):
        with tape.stop_recording():
            pass
    with tape:
        tape.watch(x)
        y = x * x
        with tape.stop_recording():
            z = y * 10.0
    assert tape.gradient(z, x) is None
    with pytest.raises(ValueError, match="Tape is not recording."):
        with tape.stop_recording():
            pass


def test_reset_forgets_what_was_recorded():
    w = sg.Variable(2.0)
    with sg.GradientTape() as tape:
        w * w  # recorded, then forgotten by reset()
        tape.reset()
        z = w * 3.0
    assert tape.gradient(z, w) == 3.0 and tape.gradient is not None
    with pytest.raises(ValueError, match="Tape is not recording."):
        tape.reset()


def test_reentering_a_recording_tape():
    with sg.GradientTape() as tape:
        with pytest.raises(ValueError, match="Tape is still recording, This can happen if "
                                             "you try to re-enter an already-active tape."):
            tape.__enter__()


def test_nested_tapes_give_second_derivatives():
    x = sg.constant(3.0)
    with sg.GradientTape() as outer:
        outer.watch(x)
        with sg.GradientTape() as inner:
            inner.watch(x)
            y = x ** 3
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    assert (float(y), float(dy), float(d2y)) == (27.0, 27.0, 18.0)


def test_nested_tapes_through_a_decorated_function():
    @sg.differentiable
    def cube(x):
        return x * x * x

    x = sg.constant(2.0)
    with sg.GradientTape() as outer:
        outer.watch(x)
        with sg.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        dy = inner.gradient(y, x)
    assert (float(dy), float(outer.gradient(dy, x))) == (12.0, 12.0)


def test_jacobian_matches_closed_form():
    x = sg.constant(np.array([1.0, 2.0, 3.0]))
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = np.sin(x) * x[0]
    jac = tape.jacobian(y, x)
    expected = np.diag(np.cos([1.0, 2.0, 3.0])) * 1.0
    expected[:, 0] += np.sin([1.0, 2.0, 3.0])
    assert jac.shape == (3, 3) and np.allclose(jac, expected)


def test_jacobian_without_pfor_needs_a_persistent_tape():
    x = sg.constant(np.array([1.0, 2.0]))
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(RuntimeError, match="GradientTape must be created with "
                                           "persistent=True to compute the jacobian"):
        tape.jacobian(y, x, experimental_use_pfor=False)


def test_variable_mutated_mid_recording_sums_all_reads():
    w = sg.Variable(2.0)
    with sg.GradientTape() as tape:
        a = w * 3.0
        w.assign_add(1.0)
        b = w * w
        total = a + b
    assert tape.gradient(total, w) == 3.0 + 2 * 3.0


def test_numpy_functions_and_methods_use_the_rule_table():
    x = sg.constant(np.array([[1.0, 2.0], [3.0, 4.0]]))
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = np.sum(np.exp(x).T @ x) + x.mean()
    g = tape.gradient(y, x)
    value = x.numpy()
    ones = np.ones((2, 2))
    expected = np.exp(value) * (ones @ value.T).T + (value @ ones) * 0 + ones @ np.exp(
        value).T * 0
    # d/dX sum(exp(X)^T X) = exp(X) * (X 1 1^T)... checked numerically instead:
    eps = 1e-6
    numeric = np.zeros((2, 2))
    for i in np.ndindex(2, 2):
        plus, minus = value.copy(), value.copy()
        plus[i] += eps
        minus[i] -= eps
        fp = np.sum(np.exp(plus).T @ plus) + plus.mean()
        fm = np.sum(np.exp(minus).T @ minus) + minus.mean()
        numeric[i] = (fp - fm) / (2 * eps)
    assert np.allclose(g, numeric, atol=1e-5) and expected.shape == g.shape


def test_missing_rule_names_the_function():
    x = sg.constant(np.array([1.0, 2.0]))
    with sg.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(sg.MissingRuleError, match="no derivative rule for `numpy.i0`"):
            np.i0(x)
