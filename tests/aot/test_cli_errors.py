"""Every command-line error is one line on stderr, ``srcgrad: ...``, with exit status 2
(the command line names something unusable) or 1 (the command failed); a closed pipe
ends a command quietly. Each case runs ``python -m srcgrad`` in a fresh process."""

import subprocess
import sys

import pytest

from tests.aot.helpers import env_with, freeze_srcgrad, run_cli, write_files

MODEL = """
    import numpy as np

    def loss(x, w):
        return np.sum(np.tanh(x * w))

    scale = 3.0

    class Model:
        pass
"""


@pytest.fixture
def workdir(tmp_path):
    freeze_srcgrad(tmp_path)
    write_files(tmp_path, {
        "model.py": MODEL,
        "broken.py": "def loss(x:\n    return x\n",
        "raises.py": "raise RuntimeError('no data file')\n",
        "notes.txt": "not python\n",
    })
    return tmp_path


def one_line_error(result, status):
    assert result.returncode == status, result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("srcgrad: "), result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    return lines[0]


@pytest.mark.parametrize("args, status, message", [
    (["show", "model.py:loss", "--wrt", "z"], 2,
     "srcgrad: --wrt z: wrt='z' is not a parameter of loss('x', 'w')"),
    (["show", "model.py:loss", "--mode", "forward", "--wrt", "z"], 2,
     "srcgrad: --wrt z: wrt='z' is not a parameter of loss('x', 'w')"),
    (["check", "model.py:loss", "--wrt", "x", "--wrt", "q"], 2,
     "srcgrad: --wrt x q: wrt='q' is not a parameter of loss('x', 'w')"),
    (["show", "model.py:scale"], 2,
     "srcgrad: model.py:scale: srcgrad differentiates Python functions; got float"),
    (["check", "model.py:Model"], 2,
     "srcgrad: model.py:Model: srcgrad differentiates Python functions; got type"),
    (["emit", "model.py", "--function", "scale"], 2,
     "srcgrad: model.py:scale: srcgrad differentiates Python functions; got float"),
    (["show", "model.py:missing"], 2, "srcgrad: model.py has no function 'missing'"),
    (["rules", "--markdown"], 2, "srcgrad: --markdown goes with --nondiff"),
    (["show", "model.py"], 2, "srcgrad: expected FILE.py:FUNC, got 'model.py'"),
    (["show", "absent.py:loss"], 2, "srcgrad: no such file: {cwd}/absent.py"),
    (["emit", "absent.py"], 2, "srcgrad: no such file: {cwd}/absent.py"),
    (["show", "notes.txt:f"], 2, "srcgrad: not a Python module: {cwd}/notes.txt"),
    (["emit", "model.py", "--function", "loss", "-o", "nowhere/out.py"], 2,
     "srcgrad: -o nowhere/out.py: no such directory"),
    (["show", "broken.py:loss"], 1,
     "srcgrad: {cwd}/broken.py:1: SyntaxError: '(' was never closed"),
    (["emit", "broken.py"], 1,
     "srcgrad: {cwd}/broken.py:1: SyntaxError: '(' was never closed"),
    (["check", "raises.py:f"], 1,
     "srcgrad: importing raises.py raised RuntimeError: no data file (at {cwd}/raises.py:1)"),
])
def test_an_error_is_one_line_with_its_status(workdir, args, status, message):
    line = one_line_error(run_cli(args, workdir), status)
    assert line == message.format(cwd=workdir.resolve())


def test_a_refused_function_is_one_line_citing_the_users_line(workdir):
    write_files(workdir, {"gen.py": """
        def loss(x):
            yield x * 2.0
    """})
    line = one_line_error(run_cli(["show", "gen.py:loss"], workdir), 1)
    assert line.startswith(f"srcgrad: {workdir.resolve()}/gen.py:3: TransformError: ")
    assert "yield" in line


def test_traceback_shows_the_python_traceback(workdir):
    result = run_cli(["--traceback", "show", "model.py:loss", "--wrt", "z"], workdir)
    assert result.returncode == 1 and "Traceback" in result.stderr


@pytest.mark.parametrize("args", [["rules"], ["show", "model.py:loss"]])
def test_a_closed_pipe_ends_the_command_quietly(workdir, args):
    process = subprocess.Popen([sys.executable, "-m", "srcgrad", *args], cwd=workdir,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env_with(SRCGRAD_CACHE="0"))
    process.stdout.close()          # the reader is gone before the first write
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == 1
    assert stderr == ""
