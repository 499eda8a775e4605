"""``show`` colours generated source on a terminal and prints plain text otherwise."""

import io
import re
import sys

from srcgrad.cli import highlight
from tests.aot.helpers import run_cli, write_files

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CODE = '''def f_grad(x, n=3):
    # Forward sweep
    s = "text" if n else 1.5
    return s
'''


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_builtin_highlighter_keeps_every_character():
    coloured = highlight.highlight_builtin(CODE)
    assert ANSI.sub("", coloured) == CODE
    assert highlight.STYLES["keyword"] + "def" in coloured
    assert highlight.STYLES["definition"] + "f_grad" in coloured
    assert highlight.STYLES["comment"] + "# Forward sweep" in coloured


def test_colour_only_on_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert highlight.colorize(CODE, io.StringIO()) == CODE
    assert highlight.colorize(CODE, Terminal(), "never") == CODE
    assert ANSI.search(highlight.colorize(CODE, Terminal()))
    monkeypatch.setenv("NO_COLOR", "1")
    assert highlight.colorize(CODE, Terminal()) == CODE


def test_without_pygments_the_builtin_highlighter_is_used(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygments", None)
    coloured = highlight.colorize(CODE, Terminal(), "always")
    assert coloured == highlight.highlight_builtin(CODE)


def test_show_command_plain_when_piped_and_coloured_when_asked(tmp_path):
    write_files(tmp_path, {"m.py": "import numpy as np\n\n\ndef f(x):\n    return np.sin(x)\n"})
    plain = run_cli(["show", "m.py:f"], tmp_path)
    assert plain.returncode == 0 and "def f_grad(x):" in plain.stdout
    assert not ANSI.search(plain.stdout)
    coloured = run_cli(["show", "m.py:f", "--color", "always"], tmp_path)
    assert ANSI.search(coloured.stdout) and ANSI.sub("", coloured.stdout) == plain.stdout
