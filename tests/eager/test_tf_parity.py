"""TensorFlow 2.21's answers at the edges of the tape and of the function APIs: integer
sources, a target that is its source, Variable values and bad arguments."""

import warnings

import numpy as np
import pytest

import srcgrad as sg

V_INT = sg.Variable(3)
V_FLOAT = sg.Variable(2.0)


@sg.differentiable
def int_times_float(x):
    return V_INT * V_FLOAT * x


def test_an_integer_constant_watched_has_no_gradient():
    """TF: x = constant(3) watched, y = x * x: the gradient is None (integers are not
    differentiable); 'zero' gives a zero."""
    x = sg.constant(3)
    with sg.GradientTape(persistent=True) as tape:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tape.watch(x)
        y = x * x
    assert tape.gradient(y, x) is None
    assert tape.gradient(y, x, unconnected_gradients="zero") == 0


def test_an_integer_variable_has_no_gradient_and_is_watched():
    """TF: Variable(3) read on the tape: gradient None, watched_variables() lists it; the
    float Variable next to it gets its gradient (here 3 * x = 6)."""
    for _ in range(2):   # (the second call takes the hot path when there is one)
        with sg.GradientTape() as tape:
            y = int_times_float(2.0)
        assert tape.watched_variables() == (V_INT, V_FLOAT)
        g_int, g_float = tape.gradient(y, [V_INT, V_FLOAT])
        assert g_int is None and np.isclose(g_float, 6.0)


def int_loss(x):
    return V_INT * V_FLOAT * x


def test_an_integer_variable_is_listed_by_implicit_gradients_with_none():
    """TF: an int Variable created trainable is listed, with a None gradient."""
    for _ in range(2):
        pairs = sg.implicit_gradients(int_loss)(2.0)
        assert [v for _, v in pairs] == [V_INT, V_FLOAT]
        assert pairs[0][0] is None and np.isclose(pairs[1][0], 6.0)


def test_the_gradient_of_a_variable_wrt_itself_is_one():
    """TF reads a Variable target on the tape (watching it): gradient(v, v) is 1.0 even
    when nothing was recorded; unwatched (watch_accessed_variables=False) it is None."""
    v = sg.Variable(np.array([2.0, -1.0]))
    with sg.GradientTape() as tape:
        pass
    assert np.array_equal(tape.gradient(v, v), [1.0, 1.0])
    assert tape.watched_variables() == (v,)
    with sg.GradientTape(watch_accessed_variables=False) as tape:
        pass
    assert tape.gradient(v, v) is None


def test_numpy_returns_a_copy():
    """TF: Variable.numpy() is a copy; writing into it leaves the Variable unchanged."""
    v = sg.Variable(np.array([1.0, 2.0]))
    v.numpy()[0] = 5.0
    np.asarray(v)[1] = 7.0
    assert np.array_equal(v.numpy(), [1.0, 2.0])


def test_variable_of_none_is_tfs_value_error():
    with pytest.raises(ValueError, match=r"The `initial_value` arg to `tf.Variable` must be "
                                         r"specified except when you are not providing a "
                                         r"`variable_def`. You provided neither."):
        sg.Variable(None)


def test_variable_of_a_non_number_is_refused():
    """TF: an object it cannot convert is ValueError("Attempt to convert a value ... with
    an unsupported type ... to a Tensor."); strings (TF's string Variables) are a
    TypeError here: srcgrad's Variables hold numbers."""
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(\{'a': 1\}\) with an "
                                         r"unsupported type \(<class 'dict'>\) to a Tensor."):
        sg.Variable({"a": 1})
    with pytest.raises(TypeError, match="holds numbers"):
        sg.Variable("abc")


def poly(x, y):
    return x * x * y


def test_params_out_of_range_is_an_index_error_naming_the_parameter():
    """TF: IndexError (list index out of range); the message says which."""
    with pytest.raises(IndexError, match=r"list index out of range: parameter 5 of poly is "
                                         r"not among the 2 argument"):
        sg.gradients_function(poly, params=[5])(1.0, 2.0)


def test_params_unknown_name_is_tfs_value_error_naming_the_parameters():
    with pytest.raises(ValueError, match=r"'zz' is not in list: params=\['zz'\] names no "
                                         r"parameter of poly\(x, y\)"):
        sg.gradients_function(poly, params=["zz"])(1.0, 2.0)


def test_params_not_a_list_is_a_type_error():
    with pytest.raises(TypeError, match="params must be a list"):
        sg.gradients_function(poly, params=0)(1.0, 2.0)


W_THREADS = sg.Variable(np.array([1.0, 2.0]))


@sg.differentiable
def weighted(x):
    return np.sum(W_THREADS * x)


def _leave_a_tape_open(out):
    tape = sg.GradientTape()
    tape.__enter__()   # no __exit__: the thread ends inside the tape
    weighted(1.0)
    out.append(tape)


def test_a_thread_that_ends_inside_a_tape_leaves_nothing_recording():
    """TF keeps the tape stack per thread: a thread's tapes go with it. Later threads
    (which may get the same ident) record only onto their own tapes."""
    import threading

    from srcgrad.eager import fastpath

    left, results = [], []

    def step():
        with sg.GradientTape() as tape:
            y = weighted(np.array([3.0, 4.0]))
        results.append(tape.gradient(y, [W_THREADS])[0])

    for _ in range(5):
        for target in (lambda: _leave_a_tape_open(left), step):
            thread = threading.Thread(target=target)
            thread.start()
            thread.join()
            assert thread.ident not in fastpath.RECORDING
    assert not any(tape._recording for tape in left)
    assert all(np.array_equal(g, [3.0, 4.0]) for g in results) and len(results) == 5


def test_batch_jacobian_is_the_per_row_jacobian():
    """TF: batch_jacobian(y, x) is [b, y_row..., x_row...] with t[i] = dy[i]/dx[i];
    checked against central differences row by row."""
    rng = np.random.default_rng(2)
    x_value, weights = rng.standard_normal((4, 3)), rng.standard_normal((3, 2))

    def rows(x):
        return np.tanh(x @ weights) * x[:, :1]

    x = sg.constant(x_value)
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = rows(x)
    jac = tape.batch_jacobian(y, x)
    assert jac.shape == (4, 2, 3)
    eps = 1e-6
    for i in range(4):
        for k in range(3):
            step = np.zeros_like(x_value)
            step[i, k] = eps
            column = (rows(x_value + step)[i] - rows(x_value - step)[i]) / (2 * eps)
            assert np.allclose(jac[i, :, k], column, atol=1e-6)


def test_batch_jacobian_errors_are_tfs():
    x = sg.constant(np.ones((2, 3)))
    with sg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * 2.0
        z = np.sum(x, axis=1)
    with pytest.raises(ValueError, match=r"Shape \(2,\) must have rank at least 2"):
        tape.batch_jacobian(z, x)
    with pytest.raises(ValueError, match=r"Need first dimension of target shape \(\(3, 2\)\) "
                                         r"and source shape \(\(2, 3\)\) to match\."):
        tape.batch_jacobian(y.T, x)
    other = sg.constant(np.ones((2, 1)))
    assert np.array_equal(tape.batch_jacobian(y, other), np.zeros((2, 3, 1)))   # (TF: zeros)
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(RuntimeError, match="persistent=True to compute the batch_jacobian"):
        tape.batch_jacobian(y, x, experimental_use_pfor=False)


C_GLOBAL = sg.constant(np.array([0.5, -1.0]))
B_GLOBAL = sg.Variable(2.0)


def reads_a_global_constant(x):
    return np.sum(np.tanh(C_GLOBAL * x)) + 3.0 * B_GLOBAL


def test_a_global_constant_does_not_zero_the_gradients():
    """TF: a constant read inside f is a constant: dB = 3.0, and d/dx is
    (1 - tanh(C x)^2) C."""
    x = np.array([1.0, 2.0])
    [(grad, variable)] = sg.implicit_gradients(reads_a_global_constant)(x)
    assert variable is B_GLOBAL and np.isclose(grad, 3.0)
    [dx] = sg.gradients_function(reads_a_global_constant)(x)
    c = C_GLOBAL.numpy()
    assert np.allclose(dx, (1 - np.tanh(c * x) ** 2) * c)
