"""Code with no file: ``python -c`` and ``exec`` of a string get an error that says which
ways work, and ``sg.exec_source`` is one (gradients checked by finite differences)."""

import linecache
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

MODEL = """
import numpy as np

def helper(x, w):
    return np.tanh(x * w)

def loss(x, w):
    h = helper(x, w)
    for _ in range(3):
        h = np.sin(h) * w + h
    return np.sum(h ** 2)
"""

def _says_every_way(message):
    assert "defined in a .py file" in message and "IPython or Jupyter" in message
    assert "Python 3.13+ REPL" in message
    assert "sg.exec_source(text) instead of exec(text)" in message
    assert "linecache entry holding its text" in message


@pytest.mark.parametrize("defined, name", [
    ("def f(x):\n    return x * x\nsg.grad(f)(1.0)\n", "f"),
    ("print(sg.grad(lambda x: x * x)(3.0))\n", "<lambda>"),
    ("g = lambda x: np.sin(x)\nprint(sg.value_and_grad(g)(3.0))\n", "<lambda>"),
])
def test_python_dash_c_gets_an_error_naming_every_way_that_works(defined, name):
    """A def and a lambda alike: nothing to read, not a file that changed."""
    code = "import srcgrad as sg, numpy as np\n" + defined
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1
    assert last.startswith(f"srcgrad.errors.SourceNotFoundError: cannot read the source of "
                           f"{name}, defined in <string> (code run with python -c or exec()")
    assert "changed after" not in done.stderr
    _says_every_way(last)


@pytest.mark.parametrize("text, name", [("def f(x):\n    return x * 3.0\n", "f"),
                                        ("f = lambda x: x * 3.0\n", "<lambda>")])
def test_exec_of_a_string_gets_the_same_error(text, name):
    namespace = {}
    exec(text, namespace)
    with pytest.raises(sg.TransformError, match=f"cannot read the source of {name}") as info:
        sg.grad(namespace["f"])(1.0)
    _says_every_way(str(info.value))


def test_exec_source_serves_every_entry_point_and_the_callees():
    namespace = sg.exec_source(MODEL)
    loss = namespace["loss"]
    x, w = np.array([0.3, -0.7, 1.1]), 0.8
    assert np.allclose(sg.grad(loss)(x, w), numeric_grad(loss, [x, w], 0), rtol=1e-6)
    value, gradient = sg.value_and_grad(loss, wrt="w")(x, w)
    assert value == pytest.approx(loss(x, w))
    assert gradient == pytest.approx(numeric_grad(loss, [x, w], 1), rel=1e-6)
    v = np.array([1.0, -2.0, 0.5])
    assert sg.jvp(loss)(x, w, v)[1] == pytest.approx(np.dot(numeric_grad(loss, [x, w], 0), v),
                                                     rel=1e-6)
    assert "def loss_grad(" in sg.source(sg.grad(loss))


def test_two_strings_defining_the_same_name_stay_apart():
    first = sg.exec_source("def f(x):\n    return x * x\n")["f"]
    second = sg.exec_source("def f(x):\n    return x * x * x\n")["f"]
    assert sg.grad(second)(2.0) == pytest.approx(12.0)
    assert sg.grad(first)(2.0) == pytest.approx(4.0)


def test_a_lambda_in_the_string_and_a_namespace_of_ones_own():
    namespace = {"scale": 3.0}
    returned = sg.exec_source("g = lambda x: scale * x ** 2\n", namespace)
    assert returned is namespace
    assert sg.grad(namespace["g"])(2.0) == pytest.approx(12.0)


def test_refusals_cite_the_strings_own_line():
    namespace = sg.exec_source("def gen(x):\n    yield x\n", filename="<cell 7>")
    with pytest.raises(sg.TransformError) as info:
        sg.grad(namespace["gen"])
    assert info.value.filename == "<cell 7>" and info.value.lineno == 2
    assert "yield x" in str(info.value)


def test_a_filename_holding_other_text_is_refused():
    sg.exec_source("def f(x):\n    return x\n", filename="<shared name>")
    sg.exec_source("def f(x):\n    return x\n", filename="<shared name>")   # same text
    with pytest.raises(ValueError, match="already holds other source text"):
        sg.exec_source("def f(x):\n    return 2 * x\n", filename="<shared name>")


def test_the_registered_text_survives_linecache_checks():
    namespace = sg.exec_source("def f(x):\n    return x * 5.0\n")
    filename = namespace["f"].__code__.co_filename
    linecache.checkcache()
    assert linecache.getline(filename, 2).strip() == "return x * 5.0"
    assert sg.grad(namespace["f"])(1.0) == pytest.approx(5.0)


def test_exec_source_in_a_python_dash_c_command():
    code = textwrap.dedent('''
        import srcgrad as sg
        ns = sg.exec_source("import math\\ndef f(x):\\n    return math.sin(x) * x\\n")
        print(sg.grad(ns["f"])(0.5))
    ''')
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    import math

    assert float(done.stdout) == pytest.approx(math.cos(0.5) * 0.5 + math.sin(0.5))
