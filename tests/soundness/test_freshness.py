"""The source srcgrad differentiates is the code that runs: a ``def`` whose file changed
after import is refused (a TransformError asking to reload), and a decorated wrapper is
differentiated as the wrapper, not as the function it wraps. Oracle: central differences."""

import functools
import importlib
import linecache
import sys
import textwrap

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import TransformError
from tests.conftest import numeric_grad

X = np.array([.3, .7, 1.1])

MODULE = """
    import numpy as np


    def scaled(x):
        return np.sum(np.sin(x) * 2.0)


    class Model:
        def __init__(self):
            self._scale = 1.5

        def _private(self, x):
            return x * self._scale

        def loss(self, x):
            return np.sum(self._private(x) ** 2)


    def make(c):
        def inner(x):
            return np.sum(np.tanh(x * c))
        return inner


    alone = lambda x: np.sum(np.cos(x) * 2.5)  # noqa: E731
"""


@pytest.fixture
def module(tmp_path, monkeypatch):
    """A fresh module in a file of its own, imported."""
    name = f"fresh_{tmp_path.name}".replace("-", "_")
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    imported = importlib.import_module(name)
    yield imported
    sys.modules.pop(name, None)


def _edit(module, old, new):
    path = module.__file__
    with open(path) as handle:
        text = handle.read()
    with open(path, "w") as handle:
        handle.write(text.replace(old, new))
    linecache.checkcache(path)


def test_unedited_definitions_are_differentiated(module):
    model = module.Model()
    for f in (module.scaled, model.loss, module.make(0.5), module.alone):
        np.testing.assert_allclose(sg.grad(f)(X), numeric_grad(f, [X], 0), rtol=1e-6)


def test_def_edited_after_import_is_refused(module):
    _edit(module, "* 2.0", "* 3.0")   # same lines, another function
    with pytest.raises(TransformError, match="changed after it was imported"):
        sg.grad(module.scaled)
    with pytest.raises(TransformError, match="reload"):
        sg.jvp(module.scaled)


def test_method_and_nested_def_edited_after_import_are_refused(module):
    model, inner = module.Model(), module.make(0.5)
    _edit(module, "** 2", "** 3")
    with pytest.raises(TransformError, match="changed after it was imported"):
        sg.grad(model.loss)
    _edit(module, "np.tanh", "np.sinh")
    with pytest.raises(TransformError, match="changed after it was imported"):
        sg.grad(inner)


def test_lambda_edited_after_import_is_refused(module):
    _edit(module, "* 2.5", "* 4.5")
    with pytest.raises(TransformError, match="changed after it was imported"):
        sg.grad(module.alone)


def test_lines_inserted_above_are_refused(module):
    _edit(module, "import numpy as np\n", "import numpy as np\nOFFSET = 1\n\n")
    with pytest.raises(TransformError, match="changed after it was imported"):
        sg.grad(module.scaled)


def test_reloading_takes_the_edit(module):
    _edit(module, "* 2.0", "* 3.0")
    reloaded = importlib.reload(module)
    f = reloaded.scaled
    np.testing.assert_allclose(sg.grad(f)(X), numeric_grad(f, [X], 0), rtol=1e-6)


def doubled(fn):
    @functools.wraps(fn)
    def wrapper(v):
        return 2 * fn(v)
    return wrapper


def doubled_any(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return 2 * fn(*args, **kwargs)
    return wrapper


@doubled
def square_sum(v):
    return np.sum(v * v)


@doubled_any
def square_sum_any(v):
    return np.sum(v * v)


@sg.differentiable
def marked(v):
    return np.sum(np.sin(v) * v)


def calls_wrapped(v):
    return square_sum(v) + marked(v)


@pytest.mark.parametrize("f", [square_sum, marked, calls_wrapped], ids=lambda f: f.__name__)
def test_decorated_wrapper_is_differentiated_as_the_wrapper(f):
    expected = numeric_grad(f, [X], 0)
    np.testing.assert_allclose(sg.grad(f)(X), expected, rtol=1e-6)
    _, derivative = sg.jvp(f)(X, np.ones(3))
    assert derivative == pytest.approx(np.sum(expected), rel=1e-6)


def scaled_by(factor):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(v, w=1.0):
            return factor * fn(v * w)
        return wrapper
    return decorate


@scaled_by(3.0)
def cube_sum(x):
    return np.sum(x ** 3)


def test_a_wrapper_has_its_own_parameters_not_the_wrapped_ones():
    """``functools.wraps`` copies ``__wrapped__``, so ``inspect.signature`` reports the
    wrapped function's ``x``; the code that runs takes ``v`` and ``w``. A gradient asked
    for ``x`` was the zeros of a global of that name."""
    expected = numeric_grad(cube_sum, [X], 0)
    np.testing.assert_allclose(sg.grad(cube_sum)(X), expected, rtol=1e-6)
    np.testing.assert_allclose(sg.grad(cube_sum, wrt="v")(X), expected, rtol=1e-6)
    np.testing.assert_allclose(sg.grad(cube_sum, wrt=1)(X, 0.5),
                               numeric_grad(cube_sum, [X, 0.5], 1), rtol=1e-6)
    _, derivative = sg.jvp(cube_sum)(X, np.ones(3))
    assert derivative == pytest.approx(np.sum(expected), rel=1e-6)
    with pytest.raises(ValueError, match="'x'"):
        sg.grad(cube_sum, wrt="x")


def test_the_compiler_refuses_a_wrt_its_function_does_not_take():
    from srcgrad.compiler import forward as compiler_forward
    from srcgrad.compiler import reverse as compiler

    with pytest.raises(ValueError, match="does not take as a parameter"):
        compiler.reverse_unit(cube_sum, ("x",))
    with pytest.raises(ValueError, match="does not take as a parameter"):
        compiler_forward.forward_unit(cube_sum, ("x",))


def test_a_wrapper_taking_star_args_is_differentiated_as_the_code_that_runs():
    # wrapper(*args, **kwargs): wrt=0 is the first argument *args receives; the gradient
    # is the wrapper's (2 * the inner one), never the inner function's
    np.testing.assert_allclose(sg.grad(square_sum_any)(X), 4 * X)
    assert sg.jvp(square_sum_any)(X, np.ones_like(X))[1] == pytest.approx(4 * np.sum(X))


def test_text_run_with_exec_source_keeps_its_inherited_future_flags():
    """``exec_source`` compiles under its own module's ``from __future__ import
    annotations``: a nested def's annotations are strings in the code that runs."""
    namespace = sg.exec_source(
        "import numpy as np\n"
        "def f(x):\n"
        "    def g(v: float) -> float:\n"
        "        return v * v\n"
        "    return np.sum(g(x) * x)\n")
    f = namespace["f"]
    np.testing.assert_allclose(sg.grad(f)(X), numeric_grad(f, [X], 0), rtol=1e-6)
