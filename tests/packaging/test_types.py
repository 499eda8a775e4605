"""mypy finds no error in the package, and types a user's script against the public API:
the derivative functions, Variables, tapes and optimizers come out as what they are, not
``Any``, and a wrong argument (a float ``wrt``) is reported."""

import importlib.util
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

import srcgrad as sg

ROOT = pathlib.Path(sg.__file__).parent.parent

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed (pip install -e '.[test]')")


def _mypy(args, cwd, cache):
    # MYPYPATH: an editable install (pip install -e) is found through an import hook,
    # which mypy does not follow; the source tree is what is installed
    env = dict(os.environ, MYPYPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir",
                           str(cache), *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd, env=env)


def test_mypy_finds_no_error_in_the_package(tmp_path):
    done = _mypy(["-p", "srcgrad"], ROOT, tmp_path / "cache")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Success: no issues found")


SCRIPT = """
    import numpy as np

    import srcgrad as sg
    from srcgrad.api import optimizers


    def loss(w: np.ndarray, x: np.ndarray) -> float:
        return float(np.sum(np.tanh(x @ w) ** 2))


    reveal_type(sg.grad(loss, wrt=0))                       # grad
    reveal_type(sg.value_and_grad(loss, argnums=(0, 1)))    # value_and_grad
    reveal_type(sg.vjp(loss))                               # vjp
    reveal_type(sg.jvp(loss, wrt="x"))                      # jvp
    reveal_type(sg.hvp(loss))                               # hvp
    reveal_type(sg.jacobian(loss))                          # jacobian
    reveal_type(sg.differentiable(loss))                    # differentiable
    reveal_type(sg.source(sg.grad(loss)))                   # source
    reveal_type(sg.Variable(np.zeros(3)))                   # Variable
    reveal_type(sg.constant(1.0))                           # constant
    reveal_type(sg.GradientTape(persistent=True))           # GradientTape
    reveal_type(sg.implicit_gradients(loss))                # implicit_gradients
    reveal_type(sg.gradients_function(loss, params=[0]))    # gradients_function
    reveal_type(optimizers.adam)                            # adam
    sg.grad(loss, wrt=1.5)                                  # wrong wrt
"""

EXPECTED = {
    "grad": "def (*Any, **Any) -> Any",
    "value_and_grad": "def (*Any, **Any) -> Any",
    "vjp": "def (*Any, **Any) -> Any",
    "jvp": "def (*Any, **Any) -> Any",
    "hvp": "def (*Any, **Any) -> Any",
    "jacobian": "def (*Any, **Any) -> Any",
    "differentiable": "def (w: numpy.ndarray",
    "source": "str",
    "Variable": "srcgrad.eager.variables.Variable",
    "constant": "srcgrad.eager.variables.Tensor",
    "GradientTape": "srcgrad.eager.tape.GradientTape",
    "implicit_gradients": "def (*Any, **Any) -> Any",
    "gradients_function": "def (*Any, **Any) -> Any",
    "adam": "def (",
}


def test_mypy_types_a_users_script_against_the_public_api(tmp_path):
    script = textwrap.dedent(SCRIPT)
    (tmp_path / "user.py").write_text(script)
    # the package found as installed code (errors inside it are its own test's business)
    done = _mypy(["--config-file", str(ROOT / "pyproject.toml"), "--python-executable",
                  sys.executable, "user.py"], tmp_path, tmp_path / "cache")
    lines = script.splitlines()
    revealed, errors = {}, []
    for line in done.stdout.splitlines():
        found = re.match(r"user\.py:(\d+): (note|error): (.*)", line)
        if found is None:
            continue
        tag = lines[int(found.group(1)) - 1].rsplit("# ", 1)[-1]
        if found.group(2) == "note" and found.group(3).startswith("Revealed type is"):
            revealed[tag] = found.group(3).split('"', 1)[1].rsplit('"', 1)[0]
        elif found.group(2) == "error":
            errors.append((tag, found.group(3)))
    assert set(revealed) == set(EXPECTED), done.stdout + done.stderr
    for tag, start in EXPECTED.items():
        assert revealed[tag].startswith(start), (tag, revealed[tag])
        assert revealed[tag] != "Any"
    assert [tag for tag, _ in errors] == ["wrong wrt"], errors
    assert "[arg-type]" in errors[0][1]
