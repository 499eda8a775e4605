"""Deep expressions compile (or are refused at their line, never a RecursionError), and
reads of the function's own namespace (``locals()``, ``vars()``, ``globals()``) are
refused by the fence when the function is decorated."""

import importlib.util
import sys

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.frontend.depth import MAX_DEPTH
from tests.conftest import numeric_grad

X = np.array([0.3, 0.7, 1.1])
TANGENT = np.array([1.0, -0.5, 0.25])


def load_module(tmp_path, name, source):
    """Import ``source`` as a module from a file (srcgrad reads functions' files)."""
    path = tmp_path / f"{name}.py"
    path.write_text("import numpy as np\n\n" + source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_all_modes(f):
    expected = numeric_grad(f, [X], 0)
    np.testing.assert_allclose(sg.grad(f)(X), expected, rtol=1e-6, atol=1e-6)
    value, tangent = sg.jvp(f)(X, TANGENT)
    np.testing.assert_allclose(value, f(X))
    np.testing.assert_allclose(tangent, expected @ TANGENT, rtol=1e-6, atol=1e-6)
    variable = sg.Variable(X.copy())
    compiled = sg.differentiable(f)
    with sg.GradientTape() as tape:
        result = compiled(variable)
    np.testing.assert_allclose(np.asarray(tape.gradient(result, variable)), expected,
                               rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("terms", [300, 600])
def test_many_operator_terms(tmp_path, terms):
    body = " + ".join(f"x[{i % 3}] * {i % 7 + 1}.0" for i in range(terms))
    module = load_module(tmp_path, f"terms_{terms}", f"def f(x):\n    return {body}\n")
    limit = sys.getrecursionlimit()
    check_all_modes(module.f)
    assert sys.getrecursionlimit() == limit   # raised while compiling only


def test_nested_parentheses(tmp_path):
    depth = 190   # Python's parser allows 200
    body = "(x[1] * " * depth + "x[0]" + " + 0.01)" * depth
    module = load_module(tmp_path, "parens", f"def f(x):\n    return {body}\n")
    check_all_modes(module.f)


def test_nested_calls(tmp_path):
    body = "np.sin(" * 150 + "x[0] * x[2]" + ")" * 150
    module = load_module(tmp_path, "calls", f"def f(x):\n    return {body}\n")
    check_all_modes(module.f)


def test_too_deep_is_refused_at_its_line(tmp_path):
    body = " + ".join("x[0]" for _ in range(MAX_DEPTH + 50))
    module = load_module(tmp_path, "too_deep",
                         f"def f(x):\n    y = x * 2.0\n    return {body}\n")
    for api in (sg.grad, sg.jvp, sg.differentiable):
        with pytest.raises(sg.TransformError) as info:
            api(module.f)
        assert info.value.lineno == 5   # the import line, a blank line, def, y, return
        assert "nested more than" in str(info.value)
        assert len(info.traceback) < 50


def reads_locals(x):
    y = x * 2.0
    return np.sum(locals()["y"])


def reads_vars(x):
    return np.sum(vars()["x"] * 2.0)


def reads_globals(x):
    return np.sum(globals()["X"] * x)


def reads_locals_through_a_name(x):
    namespace = locals
    return np.sum(namespace()["x"])


@pytest.mark.parametrize("f, name", [(reads_locals, "locals"), (reads_vars, "vars"),
                                     (reads_globals, "globals"),
                                     (reads_locals_through_a_name, "locals")])
def test_namespace_reads_are_refused_at_decoration(f, name):
    line = next(i for i, text in enumerate(open(__file__).read().splitlines(), 1)
                if f"{name}" in text and ("return" in text or "namespace =" in text)
                and i > f.__code__.co_firstlineno)
    with pytest.raises(sg.TransformError) as info:
        sg.differentiable(f)
    assert f"`{name}()` is not supported" in str(info.value)
    assert info.value.lineno == line
    for api in (sg.grad, sg.jvp):
        with pytest.raises(sg.TransformError):
            api(f)(X) if api is sg.grad else api(f)(X, TANGENT)


def test_a_local_named_vars_is_an_ordinary_name():
    def f(x):
        vars = x * 3.0
        return np.sum(vars * x)

    np.testing.assert_allclose(sg.grad(f)(X), 6.0 * X)
