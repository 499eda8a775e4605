"""``python -m srcgrad check`` and ``srcgrad.testing.check_grads``."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.cli.check import make_inputs, parse_shapes, parse_values
from srcgrad.cli.errors import UsageError
from srcgrad.testing import check_grads, directional_check
from tests.aot.helpers import last_json, run_cli, run_python, write_files

MODULE = {"funcs.py": """
    import numpy as np
    import srcgrad as sg


    def fine(x, w, n=2):
        return np.sum(np.tanh(x * w) ** n)


    def wiggle(x):
        return np.sin(x)


    sg.defelementwise(wiggle, "np.sin(x)")   # wrong on purpose: d sin(x)/dx is cos(x)


    def uses_wrong_rule(x):
        return np.sum(wiggle(x) * 2.0)
"""}


@pytest.fixture
def project(tmp_path):
    write_files(tmp_path, MODULE)
    return tmp_path


def test_check_passes_on_a_correct_function(project):
    result = run_cli(["check", "funcs.py:fine"], project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "wrt x, w" in result.stdout and "relative error" in result.stdout
    assert result.stdout.strip().endswith("ok")


def test_check_fails_on_a_wrong_custom_rule(project):
    result = run_cli(["check", "funcs.py:uses_wrong_rule", "--shapes", "x=2,3"], project)
    assert result.returncode == 1
    assert "array(2, 3)" in result.stdout and "FAILED" in result.stdout


def test_check_grads_raises_on_the_wrong_rule(project):
    out = run_python("""
        import json
        import numpy as np
        from srcgrad.testing import check_grads
        import funcs

        x = np.array([0.3, -1.2, 0.5])
        error = check_grads(funcs.fine, (x, 0.4), wrt=(0, 1))
        try:
            check_grads(funcs.uses_wrong_rule, (x,))
            raised = ""
        except AssertionError as exc:
            raised = str(exc)
        print(json.dumps([error, raised]))
    """, project)
    error, raised = last_json(out)
    assert error < 1e-6
    assert "uses_wrong_rule" in raised and "FAILED" in raised


def vector_valued(x, w):
    return np.tanh(x * w) * np.sum(x)


def structured(params, x):
    return np.sum(params["a"] * x + params["b"] ** 2)


def test_check_grads_handles_vector_outputs_and_containers():
    x = np.array([0.3, -1.2, 0.5])
    assert check_grads(vector_valued, (x, 0.4), wrt=(0, 1)) < 1e-6
    params = {"a": np.array([1.0, 2.0, 3.0]), "b": 0.5}
    assert directional_check(structured, (params, x), wrt=0).ok


ONES = np.ones(2)


def test_shapes_and_signature_defaults_make_the_inputs():
    assert parse_shapes(["x=3,4", "b=", "c=()"]) == {"x": (3, 4), "b": (), "c": ()}

    def f(x, b, w=ONES, n=3, flag=None):
        return x

    args, randomised = make_inputs(f, {"x": (3, 4), "b": ()}, ["x", "b", "w"],
                                   np.random.default_rng(0))
    assert args[0].shape == (3, 4) and isinstance(args[1], float)
    assert args[2].shape == (2,) and not np.all(args[2] == 1.0)
    assert args[3:] == [3, None] and randomised == ["x", "b", "w"]
    args, randomised = make_inputs(f, {}, None, np.random.default_rng(0), values={"n": 5})
    assert args[3] == 5 and randomised == ["x", "b"]
    assert parse_values(["n=5", "mode='fast'"]) == {"n": 5, "mode": "fast"}
    for bad in (lambda: parse_shapes(["x:3"]), lambda: parse_values(["n=open()"]),
                lambda: make_inputs(f, {"z": ()}, None, np.random.default_rng(0))):
        with pytest.raises(UsageError):
            bad()


def test_check_grads_in_autograds_form_raises_on_the_wrong_rule_in_each_mode(project):
    out = run_python("""
        import json
        import numpy as np
        from srcgrad.testing import check_grads
        import funcs

        x = np.array([0.3, -1.2, 0.5])
        check_grads(funcs.fine)(x, 0.4)                               # fwd and rev, order 2
        check_grads(funcs.fine, 1, modes=["rev"], order=1)(x, 0.4)    # argnum
        raised = []
        for modes in (["fwd"], ["rev"]):
            try:
                check_grads(funcs.uses_wrong_rule, modes=modes)(x)
                raised.append("")
            except AssertionError as exc:
                raised.append(str(exc))
        print(json.dumps(raised))
    """, project)
    forward, reverse = last_json(out)
    assert "forward derivative of uses_wrong_rule is wrong" in forward and "FAILED" in forward
    assert "gradient of uses_wrong_rule is wrong" in reverse and "FAILED" in reverse


@sg.custom_vjp
def cube_with_a_constant_derivative(x):
    return x ** 3


cube_with_a_constant_derivative.defvjp(
    lambda x: (x ** 3, x),
    lambda x, g: (g * 3.0 * sg.stop_gradient(x) ** 2,))   # right value, no second order


def sum_of_cubes(x):
    return np.sum(cube_with_a_constant_derivative(x))


def test_check_grads_in_autograds_form_checks_the_second_order():
    x = np.array([0.3, -1.2, 0.5])
    check_grads(sum_of_cubes, modes=["fwd", "rev"], order=1)(x)
    with pytest.raises(AssertionError, match="gradient of vjp_sum_of_cubes is wrong"):
        check_grads(sum_of_cubes, modes=["rev"])(x)
    check_grads(vector_valued, 1, order=2)(x, 0.4)
    check_grads(lambda v: np.sum(v ** 3), modes=[])(x)
    with pytest.raises(ValueError, match="modes must be"):
        check_grads(vector_valued, modes=["backward"])(x, 0.4)
    with pytest.raises(TypeError, match="autograd's form"):
        check_grads(vector_valued, (x, 0.4), modes=["rev"])
