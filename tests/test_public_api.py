"""The public names: ``__all__``, the lazy exports and the names type checkers read
agree; every name is documented under its own name; mypy (and pyright, when installed)
type user code against them instead of seeing modules or ``Any``."""

import ast
import importlib.util
import inspect
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

import srcgrad as sg

PACKAGE = pathlib.Path(sg.__file__).parent
ROOT = PACKAGE.parent
SUBMODULES_FOR_CHECKERS = {"optimizers", "runtime", "testing", "tfe"}


def type_checking_names():
    """Names the ``if TYPE_CHECKING:`` block of ``srcgrad/__init__.py`` imports."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    block = next(node for node in tree.body if isinstance(node, ast.If)
                 and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
    names = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom)
        for alias in node.names:
            assert alias.asname == alias.name, "re-exports are written `import X as X`"
            names[alias.name] = (node.module, alias.name)
    return names


def test_all_the_lazy_exports_and_the_checkers_names_agree():
    checked = type_checking_names()
    assert set(sg.__all__) == set(sg._EXPORTS)
    assert set(checked) - SUBMODULES_FOR_CHECKERS == set(sg.__all__)
    assert len(sg.__all__) == len(set(sg.__all__))
    for name, (module, attribute) in sg._EXPORTS.items():
        assert checked[name] == (module, attribute), name


def test_every_public_name_resolves_to_what_the_checkers_are_told():
    for name, (module, attribute) in type_checking_names().items():
        expected = (importlib.import_module(f"{module}.{attribute}")
                    if name in SUBMODULES_FOR_CHECKERS
                    else getattr(importlib.import_module(module), attribute))
        assert getattr(sg, name) is expected, name


@pytest.mark.parametrize("name", sorted(sg.__all__))
def test_every_public_name_is_documented_under_its_own_name(name):
    value = getattr(sg, name)
    assert getattr(value, "__name__", None) == name, "help() would show another name"
    doc = inspect.getdoc(value)
    assert doc and len(doc) > 40, f"sg.{name} has no real docstring"
    if inspect.isfunction(value) and "wrt" in inspect.signature(value).parameters:
        says = "index" in doc and "name" in doc and "tuple" in doc
        assert says or "as for ``sg.grad``" in doc, \
            f"sg.{name}'s docstring does not say what wrt accepts"


def test_help_of_defrule_shows_defrule():
    text = subprocess.run([sys.executable, "-c", "import srcgrad as sg; help(sg.defrule)"],
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PAGER": "cat", "TERM": "dumb"})
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[0].startswith("Help on function defrule in module ")
    assert "defadjoint" not in text.stdout and "registry" not in text.stdout


def test_dir_lists_the_api_and_no_implementation_detail():
    names = dir(sg)
    assert set(sg.__all__) <= set(names)
    assert "importlib" not in names and "TYPE_CHECKING" not in names


def test_the_package_is_marked_typed():
    assert (PACKAGE / "py.typed").is_file()


USER_CODE = """
    import numpy as np

    import srcgrad as sg


    def loss(x: np.ndarray, w: float) -> float:
        return float(np.sum(np.tanh(x * w) ** 2))


    df = sg.grad(loss, wrt=1)
    both = sg.value_and_grad(loss, wrt=("x", 1))
    hess = sg.hessian(loss, argnums=0)
    tape = sg.GradientTape(persistent=True)
    w = sg.Variable(1.0)
    text: str = sg.source(df)
    marked = sg.differentiable(loss)
    sg.defelementwise(np.cbrt, "1 / (3 * np.cbrt(x) ** 2)")
    reveal_type(df)
    reveal_type(marked)
    reveal_type(w)
"""


def _user_file(tmp_path):
    path = tmp_path / "user.py"
    path.write_text(textwrap.dedent(USER_CODE))
    return path


def test_mypy_types_user_code_against_the_public_api(tmp_path):
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "c"),
         str(_user_file(tmp_path))], capture_output=True, text=True, timeout=300,
        cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert 'Revealed type is "def (*Any, **Any) -> Any"' in out          # a function
    assert 'Revealed type is "def (x: numpy.ndarray' in out              # keeps loss's type
    assert 'Revealed type is "srcgrad.eager.variables.Variable"' in out


def test_pyright_types_user_code_against_the_public_api(tmp_path):
    pyright = shutil.which("pyright")
    if pyright is None:
        pytest.skip("pyright is not installed (it is not in the test extra: it needs node)")
    done = subprocess.run([pyright, str(_user_file(tmp_path))], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path,
                          env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    out = done.stdout
    assert done.returncode == 0 and "0 errors" in out, out + done.stderr
    assert "ModuleType" not in out
    assert 'Type of "df" is "(...) -> Any"' in out and 'Type of "w" is "Variable"' in out


def _cube(x):
    return x ** 3


@pytest.mark.parametrize("call, error, message", [
    (lambda: sg.defrule(_cube, "x", x="g * 3 * x **"), ValueError,
     "the template x= 'g \\* 3 \\* x \\*\\*' is not a Python expression"),
    (lambda: sg.defrule(_cube, "x", y="g"), TypeError, "y= names no parameter of 'x'"),
    (lambda: sg.defrule(_cube, "x", x="g", tangent={"z": "1"}), TypeError,
     "tangent\\['z'\\] names no parameter"),
    (lambda: sg.defrule(_cube, "x", x="g", tangent="fast"), TypeError,
     "tangent must be a dict of templates, 'linear' or None"),
    (lambda: sg.defelementwise(_cube, "3 * x ** "), ValueError, "is not a Python expression"),
    (lambda: sg.defelementwise(3.0, "1"), TypeError, "registered for a callable"),
])
def test_a_bad_rule_fails_where_it_is_registered(call, error, message):
    from srcgrad.rules import REGISTRY

    with pytest.raises(error, match=message):
        call()
    assert REGISTRY.lookup(_cube) is None
