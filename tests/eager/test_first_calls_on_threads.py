"""One implicit gradient function (or compiled function under tapes) shared by threads
that all make their first call at once, or all find at once that the names its fast
variant reads no longer hold Variables: every call answers, and answers right (fixed
counts: 8 threads x 50 fresh functions)."""

import sys
import threading

import numpy as np
import pytest

import srcgrad as sg

THREADS, FUNCTIONS = 8, 50
S = sg.Variable(np.array([1.0, 2.0, 3.0]))
X = np.array([0.5, 1.5, -1.0])


@pytest.fixture(autouse=True)
def frequent_switches():
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)   # thread switches between almost any two bytecodes
    yield
    sys.setswitchinterval(interval)


def fresh(k):
    """A new function reading ``W`` (a Variable for now) and ``S``, and its globals."""
    namespace = sg.exec_source(f"def loss(x):\n    return np.sum(W * x) * {k + 1}.0 + "
                               "np.sum(S * x)\n",
                               {"np": np, "S": S, "W": sg.Variable(np.ones(3))})
    return namespace["loss"], namespace


def at_once(call):
    """``call()`` on THREADS threads released together: the exceptions and results."""
    barrier, results, errors = threading.Barrier(THREADS), [], []

    def work():
        barrier.wait()
        try:
            results.append(call())
        except Exception as error:   # (reported by the test)
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    return results, errors


def check_pairs(pairs, expected):
    """``pairs`` against ``{id(variable): closed-form gradient}``."""
    assert {id(v) for _, v in pairs} == set(expected)
    for grad, variable in pairs:
        assert np.allclose(grad, expected[id(variable)])


def test_first_calls_of_one_implicit_function_on_eight_threads():
    for k in range(FUNCTIONS):
        loss, namespace = fresh(k)
        g = sg.implicit_value_and_gradients(loss)
        results, errors = at_once(lambda g=g: g(X))
        assert errors == []
        w = namespace["W"]
        for value, pairs in results:
            assert np.isclose(value, np.sum(X) * (k + 1) + np.sum(S._value * X))
            check_pairs(pairs, {id(S): X, id(w): (k + 1) * X})


def test_threads_that_all_find_a_name_rebound_at_once():
    for k in range(FUNCTIONS):
        loss, namespace = fresh(k)
        g = sg.implicit_value_and_gradients(loss)
        g(X)   # compiled while W holds a Variable
        namespace["W"] = np.full(3, 2.0)   # now a plain array: the variant cannot answer
        results, errors = at_once(lambda g=g: g(X))
        assert errors == []
        for value, pairs in results:
            assert np.isclose(value, 2.0 * np.sum(X) * (k + 1) + np.sum(S._value * X))
            check_pairs(pairs, {id(S): X})


def test_tape_calls_that_all_find_a_name_rebound_at_once():
    for k in range(FUNCTIONS // 5):
        loss, namespace = fresh(k)
        model = sg.differentiable(loss)

        def step(model=model):
            with sg.GradientTape() as tape:
                value = model(X)
            return value, tape.gradient(value, [S])

        step()
        namespace["W"] = np.full(3, 2.0)
        results, errors = at_once(step)
        assert errors == []
        for value, (grad,) in results:
            assert np.isclose(value._value, 2.0 * np.sum(X) * (k + 1) + np.sum(S._value * X))
            assert np.allclose(grad, X)
