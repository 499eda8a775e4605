"""Derivative functions pickle (by recipe: primal, wrt, options) and work in a fresh
process; results there are checked against central differences computed here."""

import pickle
import subprocess
import sys
import textwrap

import cloudpickle
import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
from tests.jaxlike import pickled_model as model

X, W = np.array([0.3, -0.7, 1.2]), np.array([0.5, 1.1, -0.4])
ROOT = __file__.rsplit("/tests/", 1)[0]


def run_fresh(payload, code, env=None):
    """Unpickle ``payload`` in a new interpreter as ``df`` and run ``code``; its last
    expression, pickled back, is the result."""
    script = "\n".join(["import pickle, sys", "import numpy as np",
                        "df = pickle.loads(sys.stdin.buffer.read())", textwrap.dedent(code),
                        "sys.stdout.buffer.write(pickle.dumps(result))"])
    done = subprocess.run([sys.executable, "-c", script], input=payload, capture_output=True,
                          cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    return pickle.loads(done.stdout)


def fd(f, args, index):
    return numeric_grad(f, args, index)


def test_derivatives_of_module_level_functions_pickle_by_name_and_run_elsewhere():
    functions = [sg.grad(model.loss, wrt=1), sg.value_and_grad(model.loss, argnums=(0, 1)),
                 sg.grad(model.with_aux, has_aux=True), sg.jacobian(model.vector),
                 sg.jacrev(model.vector), sg.jacfwd(model.vector), sg.hessian(model.loss),
                 sg.hvp(model.loss), sg.jvp(model.loss), sg.elementwise_grad(model.vector),
                 sg.gradients_function(model.loss)]
    payload = pickle.dumps(functions)
    assert b"tests.jaxlike.pickled_model" in payload and b"loss_grad" not in payload
    results = run_fresh(payload, """
        x, w = np.array([0.3, -0.7, 1.2]), np.array([0.5, 1.1, -0.4])
        g, vg, aux, jac, jrev, jfwd, hess, hvp, jvp, eg, gf = df
        result = [g(x, w), vg(x, w), aux(x, w), jac(x), jrev(x), jfwd(x), hess(x, w),
                  hvp(x, w, np.ones(3)), jvp(x, w, np.ones(3)), eg(x), gf(x, w),
                  type(g).__name__]
    """)
    g, vg, aux, jac, jrev, jfwd, hess, hvp, jvp, eg, gf, kind = results
    assert kind == "Derivative"
    assert np.allclose(g, fd(model.loss, (X, W), 1), atol=1e-6)
    assert vg[0] == pytest.approx(model.loss(X, W))
    assert np.allclose(vg[1][0], fd(model.loss, (X, W), 0), atol=1e-6)
    assert np.allclose(aux[0], fd(lambda x, w: model.with_aux(x, w)[0], (X, W), 0), atol=1e-6)
    assert np.allclose(aux[1]["h"], np.tanh(X * W))
    expected_s = np.diag(np.cos(X) * model.SCALE)
    for jacobian in (jac, jrev, jfwd):
        assert np.allclose(jacobian["s"], expected_s) and np.allclose(jacobian["p"],
                                                                     [X[1], X[0], 0])
    rows = [fd(lambda x, w, i=i: fd(model.loss, (x, w), 0)[i], (X, W), 0) for i in range(3)]
    assert np.allclose(hess, np.array(rows), atol=1e-4)
    assert np.allclose(hvp, np.array(rows).sum(axis=1), atol=1e-4)
    assert jvp[1] == pytest.approx(np.sum(fd(model.loss, (X, W), 0)), abs=1e-6)
    assert np.allclose(eg, np.cos(X) * model.SCALE + [X[1], X[0], 0])
    assert np.allclose(gf[0], fd(model.loss, (X, W), 0), atol=1e-6)


def test_a_vjp_backward_pickles_with_its_saved_values():
    value, backward = sg.vjp(model.vector)(X)
    cotangent = {"s": np.array([1.0, -2.0, 0.5]), "p": 3.0}
    result = run_fresh(pickle.dumps((backward, cotangent)), """
        backward, cotangent = df
        result = backward(cotangent)
    """)
    assert np.allclose(result, backward(cotangent))
    assert np.allclose(result, np.cos(X) * model.SCALE * cotangent["s"]
                       + 3.0 * np.array([X[1], X[0], 0.0]))


OFFSET = 0.25


def helper(h):
    return np.sum(h ** 2) + OFFSET


def test_closures_and_lambdas_go_by_value_with_cloudpickle():
    factor = 3.0

    def local(x):
        return helper(np.sin(x) * factor)

    functions = [sg.grad(local), sg.grad(lambda x, w: np.sum(x * w) ** 2, wrt=1)]
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(functions[0])              # plain pickle: by name only
    result = run_fresh(cloudpickle.dumps(functions), """
        x, w = np.array([0.3, -0.7, 1.2]), np.array([0.5, 1.1, -0.4])
        result = [df[0](x), df[1](x, w)]
    """)
    assert np.allclose(result[0], fd(local, (X,), 0), atol=1e-6)
    assert np.allclose(result[1], 2 * np.sum(X * W) * X)


SCRIPT = """
import sys
import cloudpickle
import numpy as np
import srcgrad as sg

BIAS = 2.0

def model(x, w):
    return np.sum((np.tanh(x @ w) - BIAS) ** 2)

with open(sys.argv[1], "wb") as out:
    cloudpickle.dump(sg.grad(model, wrt=1), out)
"""


def test_a_function_of_main_works_where_its_file_is_gone(tmp_path):
    script, payload = tmp_path / "train.py", tmp_path / "grad.pkl"
    script.write_text(SCRIPT)
    subprocess.run([sys.executable, str(script), str(payload)], check=True, cwd=ROOT,
                   timeout=120)
    script.unlink()
    x, w = np.arange(6.0).reshape(2, 3) / 6, np.array([0.2, -0.1, 0.4])
    result = run_fresh(payload.read_bytes(), f"""
        result = df(np.arange(6.0).reshape(2, 3) / 6, np.array({w.tolist()}))
    """)

    def model(x, w):
        return np.sum((np.tanh(x @ w) - 2.0) ** 2)

    assert np.allclose(result, fd(model, (x, w), 1), atol=1e-6)


def test_the_receiving_process_loads_the_generated_code_from_the_disk_cache(tmp_path):
    import os

    env = dict(os.environ, SRCGRAD_CACHE_DIR=str(tmp_path), SRCGRAD_CACHE="1")
    env.pop("PYTEST_CURRENT_TEST", None)
    payload = pickle.dumps(sg.grad(model.loss, wrt=1))
    code = """
        from srcgrad.compiler import reverse as compiler
        value = df(np.array([0.3, -0.7, 1.2]), np.array([0.5, 1.1, -0.4]))
        result = (compiler.COMPILE_COUNT["reverse"], value)
    """
    first, second = run_fresh(payload, code, env), run_fresh(payload, code, env)
    assert first[0] >= 1 and second[0] == 0      # generated once, then loaded
    assert np.allclose(first[1], second[1]) and np.allclose(second[1],
                                                            fd(model.loss, (X, W), 1))


def _variable_loss_gradient(x):
    """d variable_loss / d WEIGHT at the WEIGHT the module defines, by central differences."""
    weight = model.WEIGHT.numpy()
    return fd(lambda w: np.sum(np.tanh(w * x) ** 2), (weight,), 0)


def test_the_eager_gradient_functions_pickle_and_run_elsewhere():
    functions = [sg.implicit_gradients(model.variable_loss),
                 sg.implicit_value_and_gradients(model.variable_loss),
                 sg.gradients_function(model.loss, params=[1]),
                 sg.value_and_gradients_function(model.loss)]
    payload = pickle.dumps(functions)
    assert b"tests.jaxlike.pickled_model" in payload
    results = run_fresh(payload, """
        from tests.jaxlike import pickled_model as model
        x, w = np.array([0.3, -0.7, 1.2]), np.array([0.5, 1.1, -0.4])
        implicit, implicit_value, grads, value_grads = df
        [(g1, v1)] = implicit(x)
        value, [(g2, v2)] = implicit_value(x)
        result = [g1, v1 is model.WEIGHT, value, g2, v2 is model.WEIGHT, grads(x, w),
                  value_grads(x, w)]
    """)
    g1, same1, value, g2, same2, grads, (value_f, value_grads) = results
    expected = _variable_loss_gradient(X)
    assert same1 and same2      # the receiver's own Variable, read by its own module
    assert np.allclose(g1, expected, atol=1e-6) and np.allclose(g2, expected, atol=1e-6)
    assert value == pytest.approx(model.variable_loss(X))
    assert len(grads) == 1 and np.allclose(grads[0], fd(model.loss, (X, W), 1), atol=1e-6)
    assert value_f == pytest.approx(model.loss(X, W))
    assert np.allclose(value_grads[0], fd(model.loss, (X, W), 0), atol=1e-6)
    assert np.allclose(value_grads[1], fd(model.loss, (X, W), 1), atol=1e-6)


def test_an_implicit_gradient_of_a_closure_goes_by_value_with_cloudpickle():
    weight = sg.Variable(np.array([1.5, -0.5]))

    def local(x):
        return np.sum(weight * x ** 3)

    function = sg.implicit_gradients(local)
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(function)
    [(gradient, variable)] = run_fresh(cloudpickle.dumps(function), """
        result = df(np.array([2.0, -1.0]))
    """)
    assert np.allclose(gradient, [8.0, -1.0])        # d/dw sum(w * x**3) = x**3
    assert np.allclose(variable.numpy(), [1.5, -0.5])
