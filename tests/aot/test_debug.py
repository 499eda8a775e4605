"""Tracebacks from generated code name the user's line; check_nan finds the first
non-finite adjoint."""

import importlib.util
import linecache
import re
import traceback

import numpy as np
import pytest

import srcgrad as sg
from tests.aot.helpers import run_python, write_files

SOURCE = """
import numpy as np

import srcgrad as sg


@sg.differentiable   # a compiled unit of its own (small undecorated helpers are inlined)
def scale(x, w):
    return np.tanh(x * w)


def loss(x, w):
    h = scale(x, w)
    return np.sum(h ** 2)


def root(x):
    a = np.sqrt(x)
    return np.sum(a * 2.0)


def through_callee(x):
    y = root(x) + np.sum(x)
    return y
"""


@pytest.fixture
def user(tmp_path):
    write_files(tmp_path, {"user_debug.py": SOURCE})
    spec = importlib.util.spec_from_file_location("user_debug", tmp_path / "user_debug.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def line_of(text):
    return SOURCE.splitlines().index(text) + 1


def test_traceback_shows_the_generated_line_and_the_user_line(user):
    with pytest.raises(ValueError) as info:
        sg.grad(user.loss, (0, 1))(np.ones(4), np.ones(3))
    text = "".join(traceback.format_exception(info.value))
    assert "_mul = x * w" in text                                   # generated
    assert f"# from user_debug.py:{line_of('    return np.tanh(x * w)')}: " \
           "return np.tanh(x * w)" in text                          # the user's


def test_uncaught_exception_report_shows_both_lines(tmp_path):
    write_files(tmp_path, {"user_debug.py": SOURCE})
    result = run_python("""
        import numpy as np
        import srcgrad as sg
        import user_debug

        sg.grad(user_debug.loss)(np.ones(4), np.ones(3))
    """, tmp_path, check=False)
    assert result.returncode == 1
    # (Python 3.10's ast.unparse puts a tuple target in parentheses)
    assert re.search(r"\(?h, scale_saved\)? = scale_forward\(x, w\)", result.stderr)
    assert f"user_debug.py:{line_of('    h = scale(x, w)')}: h = scale(x, w)" in result.stderr


def test_annotation_costs_nothing_per_call(user):
    df = sg.grad(user.loss)
    assert df.func is df.unit.grad     # a C partial (it pickles) around the generated function
    source = linecache.getlines(df.func.__code__.co_filename)
    assert any("# from user_debug.py:" in line for line in source)
    assert "# from" not in sg.source(df)           # the shown source stays clean


def test_each_function_is_annotated_when_it_is_compiled(user):
    df = sg.grad(user.loss)
    unit = df.unit
    lines = linecache.getlines(unit.filename)

    def annotated(role):
        first, last = unit.module.spans[unit.module.functions[role]]
        return [line for line in lines[first - 1:last] if "# from user_debug.py:" in line]

    assert annotated("grad")
    assert not annotated("value_and_grad")     # not compiled by sg.grad
    x, w = np.ones(4), np.ones(4)
    value, grads = sg.value_and_grad(user.loss)(x, w)
    assert np.allclose(grads, sg.grad(user.loss)(x, w))
    lines = linecache.getlines(unit.filename)
    assert len(annotated("value_and_grad")) == len(annotated("grad"))
    assert lines[0].rstrip("\n") == unit.module.source.splitlines()[0]


def test_check_nan_names_the_first_user_line_with_a_nan_adjoint(user):
    cases = ((user.root, np.array([1.0, 0.0])), (user.root, 0.0),   # 0.0: scalar variant
             (user.through_callee, 0.0))
    for function, x in cases:
        with pytest.raises(FloatingPointError) as info:
            with np.errstate(divide="ignore"):
                sg.grad(function, check_nan=True)(x)
        message = str(info.value)
        assert f"user_debug.py:{line_of('    a = np.sqrt(x)')}: a = np.sqrt(x)" in message
        assert "dx" in message and "inf" in message


def test_check_nan_is_silent_on_finite_gradients(user):
    x = np.array([1.0, 4.0])
    assert np.allclose(sg.grad(user.through_callee, check_nan=True)(x), [2.0, 1.5])
    value, grad = sg.value_and_grad(user.root, check_nan=True)(x)
    assert value == 6.0 and np.allclose(grad, [1.0, 0.5])


def test_forward_mode_tracebacks_name_the_user_line_too(user):
    with pytest.raises(ValueError) as info:
        sg.jvp(user.loss)(np.ones(4), np.ones(3), np.ones(4))
    text = "".join(traceback.format_exception(info.value))
    assert f"# from user_debug.py:{line_of('    h = scale(x, w)')}: h = scale(x, w)" in text
